// /admin (shown as "Users"): operators create users, disable, enable or delete them (with a
// confirmation), set their passwords and limits, and see each user's requests per day and usage across
// users (this month). Every user's keys are on /admin/keys.
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
import { costText } from '../cost-text.ts';
import { unpricedNotice } from './unpriced-notice.ts';
import { userTarget, webActor } from '../../audit/audit-targets.ts';
import { auditSection } from './audit-section.ts';
import { standings } from '../../limits/quota-guard.ts';
import { registerAdminUserLimits } from './admin-user-limits.ts';
import { doneNotice, registerAdminUserActions } from './admin-user-actions.ts';
import { registerAdminKeysPage } from './admin-keys-page.ts';
import { registerAdminSupportPage } from './admin-support-page.ts';
import { registerAdminUserUsage } from './admin-user-usage.ts';
import { sparkDays, sparkline, SPARK_DAYS } from '../sparkline.ts';
import { limitsSummary } from './key-limits-view.ts';
import { registerAdminUserRole } from './admin-user-role.ts';
import { ROLES } from '../../accounts/roles.ts';

export function registerAdminPages(app: FastifyInstance, deps: GatewayDeps): void {
  const requireAdmin = async (request: FastifyRequest, reply: FastifyReply) => {
    const role = request.webUser?.role;
    // Viewers read every operator page and change nothing.
    const reading = request.method === 'GET' || request.method === 'HEAD';
    if (role !== 'operator' && !(role === 'viewer' && reading)) {
      const text = role === 'viewer' ? 'Viewers can read the operator pages but change nothing; ask an operator.' : 'User management is for gateway operators.';
      return reply.code(403).type('text/html; charset=utf-8').send(
        layout({ title: 'Operators only', user: request.webUser, csrfToken: request.webSession?.csrfToken, body: html`<section class="card narrow"><h1>Operators only</h1><p>${text}</p></section>` }),
      );
    }
  };
  const onRequest = [requirePage(deps), requireAdmin];

  async function page(request: FastifyRequest, reply: FastifyReply, message?: { text: string; error?: boolean }) {
    await deps.usage.flush().catch(() => undefined);
    const users = await deps.store.users.list();
    const names = new Map(users.map((u) => [u.id, u.username]));
    const now = (deps.now ?? Date.now)();
    const monthStart = monthStartHour(new Date(now));
    const sparkStart = `${new Date(now - (SPARK_DAYS - 1) * 86_400_000).toISOString().slice(0, 10)}T00:00Z`;
    const rows = await deps.store.usage.rows({ sinceHour: monthStart < sparkStart ? monthStart : sparkStart });
    const summary = summarize(rows.filter((r) => r.hour >= monthStart), []);
    const daily = new Map<string, Map<string, number>>();
    for (const r of rows) {
      if (r.hour < sparkStart) continue;
      const days = daily.get(r.userId) ?? new Map<string, number>();
      days.set(r.hour.slice(0, 10), (days.get(r.hour.slice(0, 10)) ?? 0) + r.requests);
      daily.set(r.userId, days);
    }
    const csrf = request.webSession!.csrfToken;
    const viewing = request.webUser!.role !== 'operator';
    const budgetStatus = new Map(await Promise.all(users.map(async (u) => [u.id, await standings(deps.budgets, { subject: `user:${u.id}`, budgets: u.limits.budgets }, now)] as const)));
    const body = html`
      <div class="page-head"><h1>Users</h1></div>
      ${message ? html`<p class="${message.error ? 'error' : 'notice'}" role="status">${message.text}</p>` : ''}
      ${viewing
        ? html`<p class="muted" id="viewer-note">You are a viewer: you see what operators see and change nothing.</p>`
        : html`      <section class="card">
        <h2>Create a user</h2>
        <form method="post" action="/admin/users" class="inline">
          <input type="hidden" name="_csrf" value="${csrf}">
          <label>User name <input name="username" required pattern="[A-Za-z0-9][A-Za-z0-9._@-]{0,63}"></label>
          <label>Password <input name="password" type="password" required minlength="8" autocomplete="new-password"></label>
          <label class="check"><input type="checkbox" name="admin" value="1"> Operator</label>
          <button type="submit" class="primary">Create</button>
        </form>
      </section>`}
      <section class="card">
        <h2>All users</h2>
        <div class="table-wrap"><table id="users-table">
          <thead><tr><th>Name</th><th>Role</th><th>State</th><th>Created</th><th>Requests, last 14 days</th><th>Limits (all keys)</th><th>Actions</th></tr></thead>
          <tbody>${users.map(
            (u) => html`<tr data-user="${u.username}"><td><a class="clip" href="/admin/keys?${new URLSearchParams({ q: u.username }).toString()}" title="${u.username}: their keys">${u.username}</a></td><td class="role-cell">${
              request.webUser!.role === 'operator' && u.id !== request.webUser!.id
                ? html`<form method="post" action="/admin/users/${u.id}/role" class="inline role-form"><input type="hidden" name="_csrf" value="${csrf}"><select name="role" aria-label="Role of ${u.username}">${ROLES.map((r) => html`<option value="${r}" ${r === u.role ? 'selected' : ''}>${r}</option>`)}</select> <button type="submit" class="small">Set</button></form>`
                : u.role
            }</td><td>${u.disabled ? 'disabled' : 'active'}</td><td>${shortTime(u.createdAt)}</td>
              <td class="spark-cell"><a href="/admin/users/${u.id}/usage" title="Usage charts of ${u.username}">${sparkline(sparkDays(daily.get(u.id) ?? new Map(), now))}</a></td>
              <td class="limits-cell">${limitsSummary(u.limits, budgetStatus.get(u.id) ?? [], now)}</td>
              <td class="actions-cell">${viewing ? html`<a class="button small" href="/admin/users/${u.id}/usage">Usage charts</a>` : html`<details class="row-actions"><summary class="button small">Actions<span class="sr-only"> for ${u.username}</span></summary><div class="row-menu">
                <a class="button small" href="/admin/users/${u.id}/usage">Usage charts</a><a class="button small" href="/admin/users/${u.id}/limits">Limits</a><a class="button small" href="/admin/users/${u.id}/password">Set password</a>${
                  u.id === request.webUser!.id
                    ? html`<span class="muted">(you: no disable or delete)</span>`
                    : html`<a class="button small ${u.disabled ? '' : 'danger'}" href="/admin/users/${u.id}/${u.disabled ? 'enable' : 'disable'}">${u.disabled ? 'Enable' : 'Disable'}…</a><a class="button small danger" href="/admin/users/${u.id}/delete">Delete…</a>`
                }</div></details>`}</td></tr>`,
          )}</tbody>
        </table></div>
      </section>
      <section class="card"><h2>Usage this month, per user</h2>${unpricedNotice(deps.prices?.unpricedModels() ?? [])}${totalsTable('User', [...summary.perUser.entries()].map(([id, t]) => [names.get(id) ?? `deleted user ${id}`, t]), deps.prices?.currency)}
        <p class="muted">${formatCount(summary.total.requests)} requests in all, costing <span id="month-cost">${costText(summary.total, deps.prices?.currency)}</span>.</p></section>
      ${auditSection(await deps.store.audit.list({ limit: 50 }))}`;
    return reply.type('text/html; charset=utf-8').send(layout({ title: 'Users', active: 'admin', user: request.webUser, csrfToken: csrf, body, styles: ['/assets/keys.css'] }));
  }

  app.get<{ Querystring: { limits?: string; done?: string; name?: string; keys?: string } }>('/admin', { onRequest }, (request, reply) => {
    const done = doneNotice(request.query);
    return page(request, reply, request.query.limits ? { text: 'Limits saved: they apply to the next request of each of the user\'s keys.' } : done ? { text: done } : undefined);
  });
  registerAdminUserLimits(app, deps, onRequest);
  registerAdminUserActions(app, deps, onRequest);
  registerAdminKeysPage(app, deps, onRequest);
  registerAdminSupportPage(app, deps, onRequest);
  registerAdminUserUsage(app, deps, onRequest);
  registerAdminUserRole(app, deps, onRequest);

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
}
