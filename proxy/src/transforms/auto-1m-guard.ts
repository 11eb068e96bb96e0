import type { BuiltinExtension } from './types.ts';
import { headerValue } from './shared/session-id.ts';

const BETA_1M = 'context-1m-2025-08-07';
const ADVICE =
  'the 1M-context beta bills long requests at a higher rate and may not be in your plan; ' +
  'set CACHE_FIX_AUTO_1M_GUARD=strip to remove it, or pick a non-1M model in the client';

type GuardMode = 'off' | 'warn' | 'strip';

/**
 * Some clients add the 1M-context beta on their own, which silently changes price and limits.
 * The default only warns; strip removes the token from the header that really goes upstream.
 */
export const auto1mGuard: BuiltinExtension = {
  name: 'auto-1m-guard',
  order: 520,
  create(services) {
    const raw = (services.env.CACHE_FIX_AUTO_1M_GUARD ?? '').trim().toLowerCase();
    let mode: GuardMode = 'warn';
    if (raw === 'off' || raw === 'strip') mode = raw;
    else if (raw !== '' && raw !== 'warn') services.warn(`[auto-1m-guard] CACHE_FIX_AUTO_1M_GUARD="${raw}" is not off, warn or strip; using warn`);
    return {
      onRequest(ctx) {
        if (mode === 'off') return;
        const header = headerValue(ctx.headers, 'anthropic-beta');
        if (header === undefined) return;
        const betas = header.split(',').map((b) => b.trim()).filter((b) => b !== '');
        if (!betas.includes(BETA_1M)) return;
        if (mode === 'strip') {
          const kept = betas.filter((b) => b !== BETA_1M);
          if (kept.length > 0) ctx.headers['anthropic-beta'] = kept.join(', ');
          else delete ctx.headers['anthropic-beta'];
        }
        const action = mode === 'strip' ? 'stripped' : 'warn';
        ctx.meta.session.auto1m = { auto_1m_detected: true, auto_1m_action: action, auto_1m_advice: ADVICE };
        services.warn(`[auto-1m-guard] ${BETA_1M} detected in outbound betas${mode === 'strip' ? ' — stripped' : ''} — ${ADVICE}`);
      },
    };
  },
};
