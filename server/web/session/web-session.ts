// Cookie sessions for the web pages: loading the user, requiring a login (pages redirect to
// /login and come back), requiring an operator, and CSRF checks on every state-changing call.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayDeps } from '../../gateway-deps.ts';
import { DEFAULT_SESSION_IDLE_MS } from '../../serve-options.ts';
import type { Session } from '../../store/sessions-repo.ts';
import type { User } from '../../store/users-repo.ts';

export const SESSION_COOKIE = 'gw_session';

declare module 'fastify' {
  interface FastifyRequest {
    webUser?: User;
    webSession?: Session;
  }
}

export function cookieOptions(request: FastifyRequest, deps: GatewayDeps) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: request.protocol === 'https' || deps.settings.publicUrl.startsWith('https:'),
  };
}

/** How long an unused session lasts (0 = only its absolute lifetime). */
export function sessionIdleMs(deps: GatewayDeps): number {
  return deps.settings.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
}

export async function loadSession(deps: GatewayDeps, request: FastifyRequest): Promise<void> {
  const token = request.cookies?.[SESSION_COOKIE];
  if (!token) return;
  const now = new Date((deps.now ?? Date.now)());
  const session = await deps.store.sessions.find(token, now);
  if (!session) return;
  const user = await deps.store.users.findById(session.userId);
  if (!user || user.disabled) return;
  await deps.store.sessions.touch(session, sessionIdleMs(deps), now);
  request.webSession = session;
  request.webUser = user;
}

export function requirePage(deps: GatewayDeps) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    await loadSession(deps, request);
    if (!request.webUser) return reply.redirect(`/login?next=${encodeURIComponent(request.url)}`, 302);
  };
}

export function requireApi(deps: GatewayDeps) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    await loadSession(deps, request);
    if (!request.webUser) return reply.code(401).send({ error: { message: 'Your session has ended. Log in again at /login.' } });
  };
}

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** True when the request comes from another site (Origin or Sec-Fetch-Site say so). */
export function isCrossSite(request: FastifyRequest): boolean {
  if (request.headers['sec-fetch-site'] === 'cross-site') return true;
  const origin = request.headers.origin;
  if (!origin || origin === 'null') return origin === 'null';
  try {
    const from = new URL(origin);
    // Compare with default ports normalised the same way on both sides.
    return from.host !== new URL(`${from.protocol}//${request.headers.host}`).host;
  } catch {
    return true;
  }
}

/** preHandler for POST/DELETE: the session's token in the form field _csrf or the x-csrf-token header. */
export async function checkCsrf(request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  const fromBody = (request.body as Record<string, unknown> | undefined)?._csrf;
  const sent = typeof fromBody === 'string' ? fromBody : (request.headers['x-csrf-token'] as string | undefined);
  const expected = request.webSession?.csrfToken;
  if (isCrossSite(request) || !expected || !sent || !sameToken(sent, expected)) {
    return reply
      .code(403)
      .type(request.url.startsWith('/web/api/') ? 'application/json' : 'text/plain; charset=utf-8')
      .send(
        request.url.startsWith('/web/api/')
          ? { error: { message: 'Refused: the request did not carry this page’s security token. Reload the page and try again.' } }
          : 'Refused: the form did not carry this page’s security token (cross-site request or expired page). Reload the page and try again.',
      );
  }
  return undefined;
}
