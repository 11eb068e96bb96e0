import type { BuiltinExtension } from './types.ts';
import { isObject, type JsonObject } from '../util/json-value.ts';
import { blocksOf, isTextBlock, messagesOf, systemBlocksOf } from './shared/message-content.ts';
import { compareCodeUnits, sortListAfterHeader } from './shared/sorted-list.ts';

// Lists the client assembles from maps whose iteration order varies between runs.
const LIST_HEADERS = ['User-invocable skills', 'skills are available', 'deferred tools are now available'];

function toolName(tool: unknown): string {
  return isObject(tool) && typeof tool.name === 'string' ? tool.name : '';
}

/**
 * Tool definitions (MCP servers included) come first in the cached prefix, and clients list them
 * in connection order, which changes when an MCP server starts a little later. Sorting them by
 * name, and the skill and deferred-tool lists likewise, keeps the prefix bytes equal across runs.
 */
export const sortStabilization: BuiltinExtension = {
  name: 'sort-stabilization',
  order: 200,
  create() {
    return {
      onRequest(ctx) {
        if (!isObject(ctx.body)) return;
        const body = ctx.body;
        let changed = false;
        if (Array.isArray(body.tools) && body.tools.length > 1) {
          const sorted = [...body.tools].sort((a, b) => compareCodeUnits(toolName(a), toolName(b)));
          if (sorted.some((tool, i) => tool !== (body.tools as unknown[])[i])) {
            body.tools = sorted;
            changed = true;
          }
        }
        const textBlocks: JsonObject[] = [...systemBlocksOf(body)];
        for (const message of messagesOf(body)) if (message.role === 'user') textBlocks.push(...blocksOf(message));
        for (const block of textBlocks) {
          if (!isTextBlock(block)) continue;
          for (const header of LIST_HEADERS) {
            if (!block.text.includes(header)) continue;
            const sorted = sortListAfterHeader(block.text, header);
            if (sorted !== block.text) {
              block.text = sorted;
              changed = true;
            }
          }
        }
        if (changed) ctx.markChanged();
      },
    };
  },
};
