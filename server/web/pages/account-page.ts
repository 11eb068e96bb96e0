// /account: the signed-in person's own account: change the password (the current one is asked), see
// the sessions and device sign-ins (gwctl login, Claude Code) signed in as them (this one marked), and
// sign out everywhere else, devices included. Works without
// JavaScript (forms); every change is audited.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AccountRuleError, checkNewPassword, PASSWORD_MIN_LENGTH } from '../../accounts/account-rules.ts';
import { userTarget, webActor } from '../../audit/audit-targets.ts';
import type { GatewayDeps } from '../../gateway-deps.ts';
import { shortTime } from '../format.ts';
import { html } from '../html.ts';
import { layout } from '../layout.ts';
import { checkCsrf, requirePage } from '../session/web-session.ts';
import { revokeEverywhere } from '../../cluster/revoke-everywhere.ts';

interface Message {
  text: string;
  error?: boolean;
}

const NOTICES: Record<string, string> = {
  password: 'Password changed.',
  'password-others': 'Password changed; your other sessions were signed out.',
  others: 'Signed out of every other session.',
};

export function registerAccountPage(app: FastifyInstance, deps: GatewayDeps): void {
  const onRequest = requirePage(deps);

  async function page(request: FastifyRequest, reply: FastifyReply, message?: Message) {
    const user = request.webUser!;
    const current = request.webSession!;
    const sessions = await deps.store.sessions.listForUser(user.id);
    const devices = await deps.store.signInGrants.listForUser(user.id);
    const others = sessions.filter((s) => s.id !== current.id).length + devices.length;
    const csrf = current.csrfToken;
    const body = html`
      <div class="page-head"><h1>Your account</h1><p class="muted">Signed in as <strong>${user.username}</strong>${user.isAdmin ? ' (operator)' : ''}.</p></div>
      ${message ? html`<p class="${message.error ? 'error' : 'notice'}" role="${message.error ? 'alert' : 'status'}">${message.text}</p>` : ''}
      <section class="card">
        <h2>Change your password</h2>
        <form method="post" action="/account/password" class="stack account-form" id="password-form">
          <input type="hidden" name="_csrf" value="${csrf}">
          <label>Current password <input name="current" type="password" required autocomplete="current-password"></label>
          <label>New password <input name="password" type="password" required minlength="${PASSWORD_MIN_LENGTH}" autocomplete="new-password"></label>
          <label>New password again <input name="again" type="password" required minlength="${PASSWORD_MIN_LENGTH}" autocomplete="new-password"></label>
          <label class="check"><input type="checkbox" name="signOutOthers" value="1" checked> Sign out my other sessions</label>
          <div class="actions"><button type="submit" class="primary">Change password</button></div>
        </form>
        <p class="muted">Your API keys are not affected. Forgot it? An operator can set a new one (<code>gwctl admin user passwd ${user.username}</code>).</p>
      </section>
      <section class="card">
        <h2>Your sessions</h2>
        <div class="table-wrap"><table id="sessions-table">
          <thead><tr><th>Signed in</th><th>Ends</th><th>Which</th></tr></thead>
          <tbody>${sessions.map(
            (s) => html`<tr><td>${shortTime(s.createdAt)}</td><td>${shortTime(s.expiresAt)}</td><td>${s.id === current.id ? html`<strong>this session</strong>` : html`<span class="muted">another browser or device</span>`}</td></tr>`,
          )}${devices.map(
            (d) => html`<tr class="device-sign-in"><td>${shortTime(d.createdAt)}</td><td>until signed out</td><td><span class="muted">device sign-in: ${d.clientName}</span></td></tr>`,
          )}</tbody>
        </table></div>
        <form method="post" action="/account/sessions/others" class="inline">
          <input type="hidden" name="_csrf" value="${csrf}">
          <button type="submit" class="danger" id="sign-out-others" ${others === 0 ? 'disabled' : ''}>Sign out everywhere else (${others})</button>
        </form>
      </section>`;
    return reply
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(layout({ title: 'Your account', active: 'account', user, csrfToken: csrf, body }));
  }

  app.get<{ Querystring: { done?: string } }>('/account', { onRequest }, (request, reply) => {
    const notice = NOTICES[request.query.done ?? ''];
    return page(request, reply, notice ? { text: notice } : undefined);
  });

  app.post<{ Body: { current?: string; password?: string; again?: string; signOutOthers?: string } }>(
    '/account/password',
    { onRequest, preHandler: checkCsrf },
    async (request, reply) => {
      const user = request.webUser!;
      const { current = '', password = '', again = '', signOutOthers } = request.body ?? {};
      if (!(await deps.store.users.checkPassword(user.id, String(current)))) return page(request, reply.code(400), { text: 'The current password is not right.', error: true });
      if (password !== again) return page(request, reply.code(400), { text: 'The two new passwords differ.', error: true });
      try {
        checkNewPassword(String(password), user.username);
      } catch (error) {
        if (error instanceof AccountRuleError) return page(request, reply.code(400), { text: `${error.message} ${error.remedy}`, error: true });
        throw error;
      }
      await deps.store.users.setPassword(user.id, String(password));
      const ended = signOutOthers === '1' ? await deps.store.sessions.deleteOthers(user.id, request.webSession!.id) : 0;
      await deps.store.audit.record({ ...webActor(request), action: 'user.password', target: userTarget(user.username), details: { by: 'self', otherSessionsEnded: ended } });
      return reply.redirect(`/account?done=${signOutOthers === '1' ? 'password-others' : 'password'}`, 303);
    },
  );

  app.post('/account/sessions/others', { onRequest, preHandler: checkCsrf }, async (request, reply) => {
    const user = request.webUser!;
    const ended = await deps.store.sessions.deleteOthers(user.id, request.webSession!.id);
    const devicesEnded = await deps.store.signInGrants.revokeForUser(user.id, 'signed out everywhere', new Date((deps.now ?? Date.now)()));
    if (devicesEnded > 0) revokeEverywhere(deps, { kind: 'user', id: user.id });
    await deps.store.audit.record({ ...webActor(request), action: 'session.revoke', target: userTarget(user.username), details: { otherSessionsEnded: ended, deviceSignInsEnded: devicesEnded } });
    return reply.redirect('/account?done=others', 303);
  });
}
