import type { BuiltinExtension } from './types.ts';
import { isObject, type JsonObject } from '../util/json-value.ts';
import { blocksOf, messagesOf } from './shared/message-content.ts';

function canCarryMarker(block: JsonObject): boolean {
  // The API rejects cache_control on empty text blocks.
  return !(block.type === 'text' && (typeof block.text !== 'string' || block.text === ''));
}

/**
 * Clients move their user-message markers around from turn to turn; each move changes the bytes
 * of earlier messages and breaks the cached prefix. One marker on the newest user block gives a
 * stable prefix and still caches the whole conversation. System and assistant markers are left.
 */
export const cacheControlNormalize: BuiltinExtension = {
  name: 'cache-control-normalize',
  order: 400,
  create() {
    return {
      onRequest(ctx) {
        if (!isObject(ctx.body)) return;
        const userMessages = messagesOf(ctx.body).filter((m) => m.role === 'user');
        const marked = userMessages.flatMap((m) => blocksOf(m)).filter((b) => b.cache_control !== undefined);
        if (marked.length === 0) return;
        const last = userMessages[userMessages.length - 1];
        if (typeof last.content === 'string') {
          if (last.content === '') return;
          last.content = [{ type: 'text', text: last.content }];
        }
        const target = [...blocksOf(last)].reverse().find(canCarryMarker);
        if (!target) return;
        if (marked.length === 1 && marked[0] === target) return;
        for (const block of marked) delete block.cache_control;
        target.cache_control = { type: 'ephemeral' };
        ctx.markChanged();
      },
    };
  },
};
