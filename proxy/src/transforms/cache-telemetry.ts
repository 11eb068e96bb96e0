import type { BuiltinExtension, RequestMeta } from './types.ts';
import { errorMessage } from '../errors.ts';
import { hasAccountHeaders, QuotaStatusWriter } from '../telemetry/quota-status-writer.ts';
import { BoundedMap } from './shared/bounded-map.ts';
import { isObject } from '../util/json-value.ts';

interface Divergence {
  sticky: boolean;
  firstSeen: string | null;
  sameFamilyTurns: number;
}

function family(model: string): string {
  const match = /^claude-(?:\d+(?:-\d+)*-)?([a-z]+)/.exec(model);
  return match ? match[1] : model;
}

/**
 * After each streamed response, records cache read/create counts per session and the account's
 * rate-limit headers under ~/.claude/quota-status/, which status lines and `gwctl` read to show
 * that traffic really went through the proxy (spec 2.5, three-layer acceptance).
 */
export const cacheTelemetry: BuiltinExtension = {
  name: 'cache-telemetry',
  order: 600,
  create(services) {
    const ttlRaw = Number(services.env.CACHE_FIX_QUOTA_STATUS_TTL_DAYS);
    const writer = new QuotaStatusWriter(services.homeDir, Number.isFinite(ttlRaw) && ttlRaw > 0 ? ttlRaw : 7, (path, error) =>
      services.warn(`[cache-telemetry] could not write ${path}: ${errorMessage(error)}`),
    );
    const divergences = new BoundedMap<string, Divergence>(2048);
    const written = new WeakSet<RequestMeta>();

    function trackDivergence(meta: RequestMeta, now: Date): void {
      const requested = meta.requestedModel;
      const served = meta.servedModel;
      if (!requested || !served) return;
      const key = meta.sessionId ?? '';
      const state = divergences.get(key) ?? { sticky: false, firstSeen: null, sameFamilyTurns: 0 };
      const differs = requested !== served;
      if (differs) {
        state.firstSeen ??= now.toISOString();
        // A different family is a real swap at once; a same-family variant may be an alias, so wait a few turns.
        if (family(requested) !== family(served)) state.sticky = true;
        else if ((state.sameFamilyTurns += 1) >= 3) state.sticky = true;
      }
      divergences.set(key, state);
      if (differs || state.sticky) {
        meta.session.divergence = {
          requested_model: requested,
          served_model: served,
          model_divergence_recent: differs,
          model_divergence_sticky: state.sticky,
          model_divergence_first_seen: state.firstSeen,
        };
      }
    }

    return {
      close: () => writer.flush(),
      streamObserverOnly: true,
      streamEvents: ['message_delta'],
      onStreamEvent(ctx) {
        if (ctx.event.type !== 'message_delta' || !isObject(ctx.event.usage) || written.has(ctx.meta)) return;
        written.add(ctx.meta);
        const now = services.now();
        try {
          trackDivergence(ctx.meta, now);
          writer.writeSession(ctx.meta, now);
          if (hasAccountHeaders(ctx.responseHeaders)) writer.writeAccount(ctx.responseHeaders, now);
        } catch (error) {
          services.warn(`[cache-telemetry] could not write quota status: ${errorMessage(error)}`);
        }
      },
    };
  },
};
