// /keys/:id/limits: the owner changes a key's limits (works without JavaScript). A change reaches
// every instance at once, like a deletion.
import type { FastifyInstance } from 'fastify';
import { keyTarget, webActor } from '../../audit/audit-targets.ts';
import { revokeEverywhere } from '../../cluster/revoke-everywhere.ts';
import type { GatewayDeps } from '../../gateway-deps.ts';
import { checkUsableModels, checkWithinAccount, servedModelIds } from '../../limits/account-bound.ts';
import { limitsPatchFrom, type LimitsFields } from '../../limits/limits-input.ts';
import { shortTime } from '../format.ts';
import { html } from '../html.ts';
import { layout } from '../layout.ts';
import { checkCsrf, requirePage } from '../session/web-session.ts';
import { limitsFields } from './key-limits-view.ts';
import { notFoundPage } from './keys.ts';

const LIMIT_FIELDS = ['expires', 'models', 'rateLimit', 'budgetTokensDay', 'budgetTokensMonth', 'budgetRequestsDay', 'budgetRequestsMonth', 'budgetCostDay', 'budgetCostMonth'] as const;

export function registerKeyLimitsPage(app: FastifyInstance, deps: GatewayDeps): void {
  const onRequest = requirePage(deps);

  app.get<{ Params: { id: string } }>('/keys/:id/limits', { onRequest }, async (request, reply) => {
    const key = await deps.store.keys.findById(request.params.id);
    if (!key || key.userId !== request.webUser!.id) return reply.code(404).type('text/html; charset=utf-8').send(notFoundPage(request.webUser!, request.webSession!.csrfToken));
    const body = html`<section class="card">
      <h1>Limits of key ${key.name ?? '(no name)'} <code>${key.hint}</code></h1>
      <p class="muted">Created ${shortTime(key.createdAt)}. Empty fields mean no limit. Requests over a limit get 401 (expired), 403 (model not allowed) or 429.</p>
      <form method="post" action="/keys/${key.id}/limits" class="inline">
        <input type="hidden" name="_csrf" value="${request.webSession!.csrfToken}">
        ${limitsFields(key.limits)}
        <button type="submit" class="primary" id="save-limits">Save limits</button>
        <a class="button" href="/keys">Cancel</a>
      </form>
    </section>`;
    return reply.type('text/html; charset=utf-8').send(layout({ title: 'Key limits', active: 'keys', user: request.webUser, csrfToken: request.webSession!.csrfToken, body }));
  });

  app.post<{ Params: { id: string }; Body: LimitsFields }>('/keys/:id/limits', { onRequest, preHandler: checkCsrf }, async (request, reply) => {
    // The form sends every field: an emptied field removes that limit.
    const fields: LimitsFields = {};
    for (const name of LIMIT_FIELDS) fields[name] = String((request.body as Record<string, unknown> | undefined)?.[name] ?? '');
    const patch = limitsPatchFrom(fields, (deps.now ?? Date.now)());
    if (patch.models !== undefined) {
      checkWithinAccount({ models: patch.models }, request.webUser!.limits);
      checkUsableModels(patch.models, request.webUser!.limits, servedModelIds(deps.router));
    }
    const updated = await deps.store.keys.updateLimits(request.params.id, patch, request.webUser!.id);
    if (!updated) return reply.code(404).type('text/html; charset=utf-8').send(notFoundPage(request.webUser!, request.webSession!.csrfToken));
    revokeEverywhere(deps, { kind: 'key', id: updated.id });
    await deps.store.audit.record({ ...webActor(request), action: 'key.update', target: keyTarget(updated), details: { changed: patch } });
    return reply.redirect('/keys', 303);
  });
}
