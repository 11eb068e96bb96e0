// /admin/users/:id/limits: operators set a user's limits, the upper bound for all of the user's keys
// (allowed models; token and request budgets per UTC day and month over all their keys together).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { userTarget, webActor } from '../../audit/audit-targets.ts';
import { revokeEverywhere } from '../../cluster/revoke-everywhere.ts';
import type { GatewayDeps } from '../../gateway-deps.ts';
import { limitsPatchFrom } from '../../limits/limits-input.ts';
import { html } from '../html.ts';
import { layout } from '../layout.ts';
import { checkCsrf } from '../session/web-session.ts';
import { limitsFields } from './key-limits-view.ts';

const USER_LIMIT_FIELDS = ['models', 'budgetTokensDay', 'budgetTokensMonth', 'budgetRequestsDay', 'budgetRequestsMonth', 'budgetCostDay', 'budgetCostMonth'] as const;

type Hook = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

export function registerAdminUserLimits(app: FastifyInstance, deps: GatewayDeps, onRequest: Hook[]): void {
  app.get<{ Params: { id: string } }>('/admin/users/:id/limits', { onRequest }, async (request, reply) => {
    const user = await deps.store.users.findById(request.params.id);
    const csrf = request.webSession!.csrfToken;
    if (!user) return reply.code(404).type('text/html; charset=utf-8').send(layout({ title: 'Not found', user: request.webUser, csrfToken: csrf, body: html`<section class="card narrow"><h1>No such user</h1><p><a href="/admin">Back</a></p></section>` }));
    const body = html`<section class="card">
      <h1>Limits of ${user.username}</h1>
      <p class="muted">An upper bound for all of this user's keys: a key may only narrow the models, and budgets here count all the user's keys together. Empty fields mean no limit.</p>
      <form method="post" action="/admin/users/${user.id}/limits" class="inline">
        <input type="hidden" name="_csrf" value="${csrf}">
        ${limitsFields(user.limits, 'user')}
        <button type="submit" class="primary" id="save-user-limits">Save limits</button>
        <a class="button" href="/admin">Cancel</a>
      </form>
    </section>`;
    return reply.type('text/html; charset=utf-8').send(layout({ title: 'User limits', active: 'admin', user: request.webUser, csrfToken: csrf, body }));
  });

  app.post<{ Params: { id: string }; Body: Record<string, unknown> }>('/admin/users/:id/limits', { onRequest, preHandler: checkCsrf }, async (request, reply) => {
    // The form sends every field: an emptied field removes that limit.
    const fields: Record<string, string> = {};
    for (const name of USER_LIMIT_FIELDS) fields[name] = String(request.body?.[name] ?? '');
    const patch = limitsPatchFrom(fields);
    const updated = await deps.store.users.setLimits(request.params.id, patch);
    if (!updated) return reply.code(404).type('text/html; charset=utf-8').send('No such user.');
    revokeEverywhere(deps, { kind: 'user', id: updated.id });
    await deps.store.audit.record({ ...webActor(request), action: 'user.limits', target: userTarget(updated.username), details: { changed: patch } });
    return reply.redirect('/admin?limits=1', 303);
  });
}
