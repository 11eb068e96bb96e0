import type { BuiltinExtension, RequestMeta } from './types.ts';
import { isObject, num, type JsonObject } from '../util/json-value.ts';
import { readSessionFile } from '../telemetry/session-file.ts';
import { blocksOf, isThinkingBlock, messagesOf } from './shared/message-content.ts';
import { BoundedMap } from './shared/bounded-map.ts';

interface SessionState {
  firstSeen: string;
  requestCount: number;
  thinkingMax: number;
  warnedHigh: boolean;
}

function threshold(raw: string | undefined, fallback: number): number {
  const value = raw && /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/** Context size as the API counted it: new input plus everything read from or written to cache. */
export function contextTokens(meta: RequestMeta): number {
  const start = meta.startUsage ?? {};
  const delta = meta.deltaUsage ?? {};
  const pick = (key: string): number => num(delta[key]) || num(start[key]);
  return pick('input_tokens') + pick('cache_read_input_tokens') + pick('cache_creation_input_tokens');
}

/**
 * Read-only: long contexts full of thinking blocks are where "thinking blocks cannot be modified"
 * errors appear, so the session file records how close a session is to that zone.
 */
export const sessionHealth: BuiltinExtension = {
  name: 'session-health',
  order: 590,
  create(services) {
    const riskOff = (services.env.CACHE_FIX_THINKING_RISK ?? '').trim().toLowerCase() === 'off';
    const warnAt = threshold(services.env.CACHE_FIX_THINKING_RISK_WARN_TOKENS, 250_000);
    const highAt = threshold(services.env.CACHE_FIX_THINKING_RISK_HIGH_TOKENS, 340_000);
    const sessions = new BoundedMap<string, SessionState>(2048);
    const thinkingCounts = new WeakMap<RequestMeta, number>();
    const done = new WeakSet<RequestMeta>();

    function stateOf(sessionId: string | null): SessionState {
      const key = sessionId ?? '';
      let state = sessions.get(key);
      if (!state) {
        const saved = readSessionFile(services.homeDir, sessionId);
        state = {
          firstSeen: typeof saved.first_seen === 'string' ? saved.first_seen : services.now().toISOString(),
          requestCount: num(saved.request_count),
          thinkingMax: num(saved.thinking_block_max),
          warnedHigh: false,
        };
        sessions.set(key, state);
      }
      return state;
    }

    return {
      streamObserverOnly: true,
      streamEvents: ['message_delta'],
      onRequest(ctx) {
        if (!isObject(ctx.body)) return;
        let count = 0;
        for (const message of messagesOf(ctx.body)) for (const block of blocksOf(message)) if (isThinkingBlock(block)) count += 1;
        thinkingCounts.set(ctx.meta, count);
      },
      onStreamEvent(ctx) {
        if (ctx.event.type !== 'message_delta' || done.has(ctx.meta)) return;
        done.add(ctx.meta);
        const state = stateOf(ctx.meta.sessionId);
        const thinking = thinkingCounts.get(ctx.meta) ?? 0;
        const tokens = contextTokens(ctx.meta);
        state.requestCount += 1;
        state.thinkingMax = Math.max(state.thinkingMax, thinking);
        const fields: JsonObject = {
          context_tokens: tokens,
          thinking_block_count: thinking,
          thinking_block_max: state.thinkingMax,
          first_seen: state.firstSeen,
          request_count: state.requestCount,
        };
        if (!riskOff) {
          const risk = thinking === 0 || tokens < warnAt ? 'ok' : tokens < highAt ? 'warn' : 'high';
          fields.thinking_desync_risk = risk;
          if (risk === 'high' && !state.warnedHigh) {
            state.warnedHigh = true;
            services.warn(
              `[session-health] session ${ctx.meta.sessionId ?? 'unknown'}: ${tokens} context tokens with ${thinking} thinking blocks; ` +
                'thinking-signature errors become likely, consider compacting the conversation',
            );
          }
        }
        ctx.meta.session.health = fields;
      },
    };
  },
};
