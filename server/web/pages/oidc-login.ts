// Single sign-on of the console: /login/oidc sends the browser to the identity provider (code flow
// with PKCE, state and nonce kept in a short-lived cookie of this browser), and
// /login/oidc/callback checks everything before a session exists: the state against the cookie,
// the code at the provider (a code works once), the ID token against the provider's keys and the
// nonce, then the account at the gateway (disabled or removed accounts stay out). Any failed check
// answers 400 with what went wrong, and no session. The return path is a path of this site only.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayDeps } from '../../gateway-deps.ts';
import { accountForSignIn } from '../../oidc/oidc-account.ts';
import { OidcCallbackError, type OidcProviderClient, type PendingLogin } from '../../oidc/oidc-provider-client.ts';
import { html } from '../html.ts';
import { layout } from '../layout.ts';
import { safeReturnPath } from '../session/return-path.ts';
import { cookieOptions, loadSession, SESSION_COOKIE, sessionIdleMs } from '../session/web-session.ts';

const PENDING_COOKIE = 'gw_oidc';
const PENDING_PATH = '/login/oidc';
const PENDING_MAX_AGE_S = 600;

interface PendingCookie extends PendingLogin {
  next: string;
}

function readPending(request: FastifyRequest): PendingCookie | undefined {
  const raw = request.cookies[PENDING_COOKIE];
  if (!raw) return undefined;
  try {
    const value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as PendingCookie;
    return typeof value.state === 'string' && typeof value.nonce === 'string' && typeof value.verifier === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

function failure(reply: FastifyReply, status: number, what: string) {
  const body = html`<section class="card narrow" id="sign-in-failed"><h1>Sign-in failed</h1><p class="error" role="alert">${what}</p><p>No session was created. <a href="/login">Try again</a>.</p></section>`;
  return reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(layout({ title: 'Sign-in failed', body, bare: true }));
}

export function callbackUrl(deps: GatewayDeps): string {
  return `${deps.settings.publicUrl}/login/oidc/callback`;
}

export function registerOidcLogin(app: FastifyInstance, deps: GatewayDeps, oidc: OidcProviderClient): void {
  app.get<{ Querystring: { next?: string } }>('/login/oidc', async (request, reply) => {
    let begun;
    try {
      begun = await oidc.begin(callbackUrl(deps));
    } catch (error) {
      request.log.warn({ err: { message: (error as Error).message } }, 'identity provider unavailable');
      return failure(reply, 502, `The identity provider cannot be reached or is misconfigured: ${(error as Error).message}`);
    }
    const pending: PendingCookie = { ...begun.pending, next: safeReturnPath(request.query.next) };
    reply.setCookie(PENDING_COOKIE, Buffer.from(JSON.stringify(pending)).toString('base64url'), { ...cookieOptions(request, deps), path: PENDING_PATH, maxAge: PENDING_MAX_AGE_S });
    return reply.header('cache-control', 'no-store').redirect(begun.url, 302);
  });

  app.get<{ Querystring: { code?: string; state?: string; error?: string; error_description?: string } }>('/login/oidc/callback', async (request, reply) => {
    const pending = readPending(request);
    // The pending sign-in is spent whatever happens next: a callback works once.
    reply.clearCookie(PENDING_COOKIE, { path: PENDING_PATH });
    const { code, state, error } = request.query;
    if (error) return failure(reply, 400, `The identity provider did not sign you in (${String(error).slice(0, 100)}${request.query.error_description ? `: ${String(request.query.error_description).slice(0, 200)}` : ''}).`);
    if (!pending) return failure(reply, 400, 'This sign-in was not started in this browser, was already used, or took longer than ten minutes.');
    if (!state || state !== pending.state) return failure(reply, 400, 'The state of this sign-in does not match the one this browser started (a forged or mixed-up sign-in link).');
    if (!code) return failure(reply, 400, 'The identity provider sent no code.');
    let claims;
    try {
      claims = await oidc.finish(code, pending, callbackUrl(deps));
    } catch (failed) {
      if (failed instanceof OidcCallbackError) return failure(reply, 400, failed.message);
      request.log.warn({ err: { message: (failed as Error).message } }, 'identity provider sign-in failed');
      return failure(reply, 502, 'The identity provider could not be reached to finish the sign-in. Try again.');
    }
    const account = await accountForSignIn(deps, oidc.settings, claims);
    if (!account.ok) return failure(reply, 403, account.reason);
    await loadSession(deps, request);
    if (request.webSession) await deps.store.sessions.delete(request.webSession.id);
    const { token } = await deps.store.sessions.create(account.user.id, new Date((deps.now ?? Date.now)()), sessionIdleMs(deps));
    reply.setCookie(SESSION_COOKIE, token, cookieOptions(request, deps));
    return reply.redirect(safeReturnPath(pending.next), 303);
  });
}
