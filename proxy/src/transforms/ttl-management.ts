import type { BuiltinExtension } from './types.ts';
import { isObject } from '../util/json-value.ts';
import { cacheableBlocks, isThinkingBlock, systemBlocksOf } from './shared/message-content.ts';

type TtlSetting = '1h' | '5m' | 'none';

const SUBAGENT_PREFIX = "You are a Claude agent, built on Anthropic's Claude Agent SDK.";

function parseSetting(raw: string | undefined, variable: string, warn: (line: string) => void): TtlSetting {
  const value = (raw ?? '').trim().toLowerCase();
  if (value === '' || value === '1h') return '1h';
  if (value === '5m' || value === 'none') return value;
  warn(`[ttl-management] ${variable}="${raw}" is not 1h, 5m or none; using 1h`);
  return '1h';
}

/**
 * Markers without a ttl default to 5 minutes upstream, so a session paused for a coffee loses its
 * cache. Giving every unmarked ephemeral marker the configured ttl keeps long sessions warm.
 * Thinking blocks are skipped because the API refuses edits to them.
 */
export const ttlManagement: BuiltinExtension = {
  name: 'ttl-management',
  order: 500,
  create(services) {
    const main = parseSetting(services.env.CACHE_FIX_TTL_MAIN, 'CACHE_FIX_TTL_MAIN', services.warn);
    const subagent = parseSetting(services.env.CACHE_FIX_TTL_SUBAGENT, 'CACHE_FIX_TTL_SUBAGENT', services.warn);
    return {
      onRequest(ctx) {
        if (!isObject(ctx.body)) return;
        const isSubagent = systemBlocksOf(ctx.body).some(
          (block) => typeof block.text === 'string' && block.text.startsWith(SUBAGENT_PREFIX),
        );
        const setting = isSubagent ? subagent : main;
        if (setting === 'none') return;
        const ttl = setting === '5m' || ctx.meta.ttlTier === '5m' ? '5m' : '1h';
        let changed = false;
        for (const block of cacheableBlocks(ctx.body)) {
          if (isThinkingBlock(block)) continue;
          const marker = block.cache_control;
          if (isObject(marker) && marker.type === 'ephemeral' && marker.ttl === undefined) {
            marker.ttl = ttl;
            changed = true;
          }
        }
        if (changed) ctx.markChanged();
      },
    };
  },
};
