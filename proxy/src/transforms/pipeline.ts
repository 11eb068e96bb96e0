import type { Extension, HeaderMap, LocalReply, RequestContext, RequestMeta, ResponseContext } from './types.ts';
import { errorMessage } from '../errors.ts';
import { isObject, type JsonObject } from '../util/json-value.ts';

type Warn = (line: string) => void;

/**
 * Runs onRequest hooks in order. A throwing hook is logged and skipped: one broken extension must
 * not take the user's traffic down. Returns a local reply when an extension answers by itself.
 */
export async function runRequestHooks(chain: readonly Extension[], ctx: RequestContext, warn: Warn): Promise<LocalReply | null> {
  for (const ext of chain) {
    if (!ext.onRequest) continue;
    try {
      const reply = await ext.onRequest(ctx);
      // File extensions do not report edits, so their presence alone means "maybe changed".
      if (!ext.builtin) ctx.markChanged();
      if (isObject(reply) && reply.skip === true) return reply as LocalReply;
    } catch (error) {
      warn(`[pipeline] ${ext.name}.onRequest error: ${errorMessage(error)}`);
    }
  }
  return null;
}

export async function runResponseStartHooks(chain: readonly Extension[], status: number, headers: HeaderMap, meta: RequestMeta, warn: Warn): Promise<void> {
  for (const ext of chain) {
    if (!ext.onResponseStart) continue;
    try {
      await ext.onResponseStart({ status, headers, meta });
    } catch (error) {
      warn(`[pipeline] ${ext.name}.onResponseStart error: ${errorMessage(error)}`);
    }
  }
}

export async function runResponseHooks(chain: readonly Extension[], ctx: ResponseContext, warn: Warn): Promise<void> {
  for (const ext of chain) {
    if (!ext.onResponse) continue;
    try {
      await ext.onResponse(ctx);
      if (!ext.builtin) ctx.markChanged();
    } catch (error) {
      warn(`[pipeline] ${ext.name}.onResponse error: ${errorMessage(error)}`);
    }
  }
}

export interface StreamHooks {
  /** True when some hook may rewrite or drop events, so bytes cannot be passed through as they are. */
  rewrites: boolean;
  /** Whether an event with this SSE `event:` name needs parsing at all. */
  wants(eventName: string | null): boolean;
  /** undefined keeps the event, null drops it, an object replaces it. */
  onEvent(event: JsonObject, eventName: string | null): JsonObject | null | undefined;
}

// The relay itself reads these to fill meta before any hook runs.
const META_EVENTS = ['message_start', 'message_delta'];

export function streamHooksFor(
  chain: readonly Extension[],
  status: number,
  responseHeaders: HeaderMap,
  meta: RequestMeta,
  warn: Warn,
): StreamHooks | null {
  const hooked = chain.filter((ext) => ext.onStreamEvent);
  if (hooked.length === 0) return null;
  const filters = hooked.map((ext) => ext.streamEvents);
  const anyUnfiltered = filters.some((f) => f === undefined);
  const wanted = new Set([...META_EVENTS, ...filters.flatMap((f) => f ?? [])]);
  return {
    rewrites: hooked.some((ext) => !ext.streamObserverOnly),
    wants: (eventName) => eventName === null || anyUnfiltered || wanted.has(eventName),
    onEvent(event, eventName) {
      if (event.type === 'message_start' && isObject(event.message)) {
        if (typeof event.message.model === 'string') meta.servedModel = event.message.model;
        if (isObject(event.message.usage)) meta.startUsage = event.message.usage;
      } else if (event.type === 'message_delta' && isObject(event.usage)) {
        meta.deltaUsage = event.usage;
      }
      let current = event;
      let replaced = false;
      for (const ext of hooked) {
        const types = ext.streamEvents;
        if (types && !types.includes(String(current.type))) continue;
        let dropped = false;
        try {
          const result = ext.onStreamEvent?.({ event: current, eventName, status, responseHeaders, meta, drop: () => { dropped = true; } });
          if (dropped) return null;
          if (isObject(result) && !ext.streamObserverOnly) {
            current = result;
            replaced = true;
          }
        } catch (error) {
          warn(`[pipeline] ${ext.name}.onStreamEvent error: ${errorMessage(error)}`);
        }
      }
      return replaced ? current : undefined;
    },
  };
}
