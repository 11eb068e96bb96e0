// /admin (shown as "Users"): operators create and disable users, set their limits, and see usage across users (this month).
import { passwordProblem } from '../../auth/password-policy.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayDeps } from '../../gateway-deps.ts';
import { UserExistsError } from '../../store/users-repo.ts';
import { formatCount, monthStartHour, shortTime } from '../format.ts';
import { html } from '../html.ts';
import { layout } from '../layout.ts';
import { checkCsrf, requirePage } from '../session/web-session.ts';
import { summarize } from '../usage-summary.ts';
import { totalsTable } from './usage.ts';
import { revokeEverywhere } from '../../cluster/revoke-everywhere.ts';
import { userTarget, webActor } from '../../audit/audit-targets.ts';
import { auditSection } from './audit-section.ts';
import { standings } from '../../limits/quota-guard.ts';
import { registerAdminUserLimits } from './admin-user-limits.ts';
import { limitsSummary } from './key-limits-view.ts';

export function registerAdminPages(app: FastifyInstance, deps: GatewayDeps): void {
  const requireAdmin = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.webUser?.isAdmin) {
      return reply.code(403).type('text/html; charset=utf-8').send(
        layout({ title: 'Operators only', user: request.webUser, csrfToken: request.webSession?.csrfToken, body: html`<section class="card narrow"><h1>Operators only</h1><p>User management is for gateway operators.</p></section>` }),
      );
    }
  };
  const onRequest = [requirePage(deps), requireAdmin];

  async function page(request: FastifyRequest, reply: FastifyReply, message?: { text: string; error?: boolean }) {
    await deps.usage.flush().catch(() => undefined);
    const users = await deps.store.users.list();
    const names = new Map(users.map((u) => [u.id, u.username]));
    const summary = summarize(await deps.store.usage.rows({ sinceHour: monthStartHour() }), []);
    const csrf = request.webSession!.csrfToken;
    const now = (deps.now ?? Date.now)();
    const budgetStatus = new Map(await Promise.all(users.map(async (u) => [u.id, await standings(deps.budgets, { subject: `user:${u.id}`, budgets: u.limits.budgets }, now)] as const)));
    const body = html`
      <div class="page-head"><h1>Users</h1></div>
      ${message ? html`<p class="${message.error ? 'error' : 'notice'}" role="status">${message.text}</p>` : ''}
      <section class="card">
        <h2>Create a user</h2>
        <form method="post" action="/admin/users" class="inline">
          <input type="hidden" name="_csrf" value="${csrf}">
          <label>User name <input name="username" required pattern="[A-Za-z0-9][A-Za-z0-9._@-]{0,63}"></label>
          <label>Password <input name="password" type="password" required minlength="8" autocomplete="new-password"></label>
          <label class="check"><input type="checkbox" name="admin" value="1"> Operator</label>
          <button type="submit" class="primary">Create</button>
        </form>
      </section>
      <section class="card">
        <h2>All users</h2>
        <div class="table-wrap"><table>
          <thead><tr><th>Name</th><th>Role</th><th>State</th><th>Created</th><th>Limits (all keys)</th><th></th></tr></thead>
          <tbody>${users.map(
            (u) => html`<tr><td>${u.username}</td><td>${u.isAdmin ? 'operator' : 'user'}</td><td>${u.disabled ? 'disabled' : 'active'}</td><td>${shortTime(u.createdAt)}</td>
              <td class="limits-cell">${limitsSummary(u.limits, budgetStatus.get(u.id) ?? [], now)} <a class="button small" href="/admin/users/${u.id}/limits">Limits</a></td>
              <td>${
                u.id === request.webUser!.id
                  ? html`<span class="muted">you</span>`
                  : html`<form method="post" action="/admin/users/${u.id}/${u.disabled ? 'enable' : 'disable'}"><input type="hidden" name="_csrf" value="${csrf}"><button type="submit" class="small ${u.disabled ? '' : 'danger'}">${u.disabled ? 'Enable' : 'Disable'}</button></form>`
              }</td></tr>`,
          )}</tbody>
        </table></div>
      </section>
      <section class="card"><h2>Usage this month, per user</h2>${totalsTable('User', [...summary.perUser.entries()].map(([id, t]) => [names.get(id) ?? id, t]))}
        <p class="muted">${formatCount(summary.total.requests)} requests in all.</p></section>
      ${auditSection(await deps.store.audit.list({ limit: 50 }))}`;
    return reply.type('text/html; charset=utf-8').send(layout({ title: 'Users', active: 'admin', user: request.webUser, csrfToken: csrf, body }));
  }

  app.get<{ Querystring: { limits?: string } }>('/admin', { onRequest }, (request, reply) => page(request, reply, request.query.limits ? { text: 'Limits saved: they apply to the next request of each of the user\'s keys.' } : undefined));
  registerAdminUserLimits(app, deps, onRequest);

  app.post<{ Body: { username?: string; password?: string; admin?: string } }>('/admin/users', { onRequest, preHandler: checkCsrf }, async (request, reply) => {
    const { username = '', password = '', admin } = request.body ?? {};
    const problem = passwordProblem(password, username.trim());
    if (problem) return page(request, reply.code(400), { text: problem, error: true });
    try {
      await deps.store.users.create(username.trim(), password, { isAdmin: admin === '1' });
      await deps.store.audit.record({ ...webActor(request), action: 'user.create', target: userTarget(username.trim()), details: { admin: admin === '1' } });
    } catch (error) {
      if (error instanceof UserExistsError || error instanceof RangeError) return page(request, reply.code(400), { text: error.message, error: true });
      throw error;
    }
    return page(request, reply, { text: `Created user “${username.trim()}”.` });
  });

  app.post<{ Params: { id: string; action: string } }>('/admin/users/:id/:action', { onRequest, preHandler: checkCsrf }, async (request, reply) => {
    const { id, action } = request.params;
    if ((action !== 'disable' && action !== 'enable') || id === request.webUser!.id) return page(request, reply.code(400), { text: 'That change is not possible.', error: true });
    if (!(await deps.store.users.setDisabled(id, action === 'disable'))) return page(request, reply.code(404), { text: 'No such user.', error: true });
    const target = await deps.store.users.findById(id);
    await deps.store.audit.record({ ...webActor(request), action: action === 'disable' ? 'user.disable' : 'user.enable', target: userTarget(target?.username ?? id) });
    if (action === 'disable') {
      await deps.store.sessions.deleteForUser(id);
      revokeEverywhere(deps, { kind: 'user', id });
    }
    return page(request, reply, { text: action === 'disable' ? 'User disabled: their sessions ended and their keys answer 401.' : 'User enabled.' });
  });
}
