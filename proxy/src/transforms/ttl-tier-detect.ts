import type { BuiltinExtension } from './types.ts';
import { isObject } from '../util/json-value.ts';
import { cacheableBlocks } from './shared/message-content.ts';

/**
 * A request that already carries a 5m marker must stay 5m throughout: the API rejects a 1h marker
 * placed after a 5m one, so ttl-management reads this before choosing what to add.
 */
export const ttlTierDetect: BuiltinExtension = {
  name: 'ttl-tier-detect',
  order: 75,
  create() {
    return {
      onRequest(ctx) {
        if (!isObject(ctx.body)) return;
        ctx.meta.ttlTier = '1h';
        for (const block of cacheableBlocks(ctx.body)) {
          if (isObject(block.cache_control) && block.cache_control.ttl === '5m') {
            ctx.meta.ttlTier = '5m';
            return;
          }
        }
      },
    };
  },
};
