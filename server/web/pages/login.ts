// /login and /logout. Login rotates the session (a new token every time), is protected against
// login CSRF with a double-submit cookie, and failed attempts are rate-limited.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomBase62 } from '../../auth/random-tokens.ts';
import type { GatewayDeps } from '../../gateway-deps.ts';
import { html } from '../html.ts';
import { layout } from '../layout.ts';
import type { LoginLimiter } from '../session/login-limiter.ts';
import { FALLBACK_RETURN_PATH, resolveReturnPath, safeReturnPath } from '../session/return-path.ts';
import { checkCsrf, cookieOptions, isCrossSite, loadSession, SESSION_COOKIE, sessionIdleMs } from '../session/web-session.ts';

const LOGIN_CSRF_COOKIE = 'gw_login_csrf';

/** "Sign in with idp.example.com" when the operator gave no display name. */
function providerName(issuer: string): string {
  try {
    return new URL(issuer).host;
  } catch {
    return 'your identity provider';
  }
}

function loginPage(reply: FastifyReply, request: FastifyRequest, deps: GatewayDeps, options: { next: string; error?: string; username?: string; status?: number }) {
  const token = randomBase62(32);
  reply.setCookie(LOGIN_CSRF_COOKIE, token, { ...cookieOptions(request, deps), path: '/login' });
  const local = deps.settings.localPasswords !== false;
  const sso = deps.oidc
    ? html`<p><a class="button primary" id="sign-in-oidc" href="/login/oidc?next=${encodeURIComponent(options.next)}">Sign in with ${deps.oidc.settings.displayName ?? providerName(deps.oidc.settings.issuer)}</a></p>`
    : '';
  const body = html`<section class="card narrow">
    <h1>Log in</h1>
    <p class="muted">${local ? 'Use your gateway account.' : 'Use your organisation’s account.'} The web apps need no API key.</p>
    ${options.error ? html`<p class="error" role="alert">${options.error}</p>` : ''}
    ${sso}
    ${local
      ? html`<form method="post" action="/login" class="stack">
      <input type="hidden" name="_csrf" value="${token}">
      <input type="hidden" name="next" value="${options.next}">
      <label>User name <input name="username" autocomplete="username" required value="${options.username ?? ''}" ${deps.oidc ? '' : 'autofocus'}></label>
      <label>Password <input name="password" type="password" autocomplete="current-password" required></label>
      <button type="submit" class="${deps.oidc ? '' : 'primary'}">Log in</button>
    </form>`
      : ''}
  </section>`;
  return reply
    .code(options.status ?? 200)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(layout({ title: 'Log in', body, bare: true }));
}

export function registerLogin(app: FastifyInstance, deps: GatewayDeps, limiter: LoginLimiter): void {
  app.get<{ Querystring: { next?: string } }>('/login', async (request, reply) => {
    await loadSession(deps, request);
    const next = resolveReturnPath(request.query.next);
    if (!next.ok) {
      // A link that tries to send the browser elsewhere after login: refused, never followed.
      const error = 'This link’s return address is not a page of this site, so it was dropped. After logging in you will see your keys.';
      if (!request.webUser) return loginPage(reply, request, deps, { next: FALLBACK_RETURN_PATH, error, status: 400 });
      return reply
        .code(400)
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(layout({ title: 'Error', user: request.webUser, csrfToken: request.webSession?.csrfToken, body: html`<section class="card narrow"><h1>Link refused</h1><p>This link’s return address is not a page of this site, so it was not followed.</p><p><a href="${FALLBACK_RETURN_PATH}">Go to your keys</a></p></section>` }));
    }
    if (request.webUser) return reply.redirect(next.path, 302);
    return loginPage(reply, request, deps, { next: next.path });
  });

  app.post<{ Body: Record<string, string | undefined> }>('/login', async (request, reply) => {
    const body = request.body ?? {};
    const next = safeReturnPath(body.next);
    const username = String(body.username ?? '').trim();
    if (deps.settings.localPasswords === false) {
      return loginPage(reply, request, deps, { next, status: 403, error: 'Sign-in with a gateway password is turned off here; use the single sign-on button.' });
    }
    const cookieToken = request.cookies[LOGIN_CSRF_COOKIE];
    if (isCrossSite(request) || !cookieToken || body._csrf !== cookieToken) {
      return loginPage(reply, request, deps, { next, username, status: 403, error: 'This login form expired or came from another site. Please try again.' });
    }
    const wait = await limiter.retryAfterMs(request.ip, username);
    if (wait > 0) {
      reply.header('retry-after', String(Math.ceil(wait / 1000)));
      return loginPage(reply, request, deps, { next, username, status: 429, error: `Too many failed attempts. Try again in ${Math.ceil(wait / 60_000)} minute(s).` });
    }
    const checked = await limiter.paced(username, async () => ({
      user: username && body.password ? await deps.store.users.authenticate(username, String(body.password)) : undefined,
    }));
    if (!checked) {
      reply.header('retry-after', '5');
      return loginPage(reply, request, deps, { next, username, status: 429, error: 'Many login attempts for this account are in progress. Try again in a few seconds.' });
    }
    const user = checked.user;
    if (!user) {
      await limiter.fail(request.ip, username);
      return loginPage(reply, request, deps, { next, username, status: 401, error: 'Wrong user name or password, or the account is disabled.' });
    }
    await limiter.succeed(request.ip, username);
    // Rotation: whatever session the browser had is dropped and a fresh token issued.
    await loadSession(deps, request);
    if (request.webSession) await deps.store.sessions.delete(request.webSession.id);
    const { token } = await deps.store.sessions.create(user.id, new Date((deps.now ?? Date.now)()), sessionIdleMs(deps));
    reply.clearCookie(LOGIN_CSRF_COOKIE, { path: '/login' });
    reply.setCookie(SESSION_COOKIE, token, cookieOptions(request, deps));
    return reply.redirect(next, 303);
  });

  app.post('/logout', { preHandler: [async (request) => loadSession(deps, request), checkCsrf] }, async (request, reply) => {
    if (request.webSession) await deps.store.sessions.delete(request.webSession.id);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return reply.redirect('/login', 303);
  });
}
