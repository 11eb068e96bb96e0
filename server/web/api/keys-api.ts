// JSON calls behind the keys page (session + CSRF): list (with each key's limits and what is left
// of its budgets, last use and requests per day), create (the value is in this response only),
// change limits, delete.
import type { FastifyInstance } from 'fastify';
import type { GatewayDeps } from '../../gateway-deps.ts';
import { KEY_NAME_MAX_LENGTH, type ApiKeyRecord } from '../../store/keys-repo.ts';
import { checkUsableModels, checkWithinAccount, servedModelIds } from '../../limits/account-bound.ts';
import { applyPatch, NO_LIMITS } from '../../limits/key-limits.ts';
import { LIMITS_SCHEMA_PROPERTIES, limitsPatchFrom, type LimitsFields } from '../../limits/limits-input.ts';
import { standings } from '../../limits/quota-guard.ts';
import { checkCsrf, requireApi } from '../session/web-session.ts';
import { keyUsage } from '../key-usage.ts';
import { checkRoomForKey } from '../../limits/key-count.ts';

/** Keys listed per page on the keys page and by its JSON call. */
export const KEYS_PAGE_SIZE = 50;
const KEYS_PAGE_MAX = 100;
import { revokeEverywhere } from '../../cluster/revoke-everywhere.ts';
import { keyTarget, webActor } from '../../audit/audit-targets.ts';

/** A key as the APIs show it: its record plus, per budget, what is used and left this period. */
export async function withBudgetStandings(deps: GatewayDeps, key: ApiKeyRecord) {
  return { ...key, budgetStatus: await standings(deps.budgets, { subject: `key:${key.id}`, budgets: key.limits.budgets }, (deps.now ?? Date.now)()) };
}

export function registerKeysApi(app: FastifyInstance, deps: GatewayDeps): void {
  const onRequest = requireApi(deps);
  const now = () => (deps.now ?? Date.now)();

  // Each key with what is left of its budgets, when it was last used (lastUsedAt) and its requests
  // per day over the last 14 days, as the keys page shows them.
  // A page at a time (`limit` up to 100, default 50; `offset`): `nextOffset` is null on the last page.
  app.get<{ Querystring: { limit?: string; offset?: string } }>(
    '/web/api/keys',
    { onRequest, schema: { querystring: { type: 'object', properties: { limit: { type: 'string', pattern: '^[0-9]{1,3}$' }, offset: { type: 'string', pattern: '^[0-9]{1,7}$' } } } } },
    async (request, reply) => {
      const limit = request.query.limit ? Number(request.query.limit) : KEYS_PAGE_SIZE;
      const offset = request.query.offset ? Number(request.query.offset) : 0;
      if (limit < 1 || limit > KEYS_PAGE_MAX) return reply.code(400).send({ error: { message: `limit must be from 1 to ${KEYS_PAGE_MAX}.` } });
      const [keys, total] = await Promise.all([deps.store.keys.listForUser(request.webUser!.id, { limit, offset }), deps.store.keys.countForUser(request.webUser!.id)]);
      const usage = await keyUsage(deps, request.webUser!.id, now());
      return {
        keys: await Promise.all(keys.map(async (key) => ({ ...(await withBudgetStandings(deps, key)), requestsByDay: usage.spark(key.id) }))),
        total,
        nextOffset: offset + keys.length < total ? offset + keys.length : null,
      };
    },
  );

  app.post<{ Body: ({ name?: string | null } & LimitsFields) | undefined }>(
    '/web/api/keys',
    {
      onRequest,
      preHandler: checkCsrf,
      schema: { body: { type: 'object', properties: { name: { type: ['string', 'null'], maxLength: KEY_NAME_MAX_LENGTH }, ...LIMITS_SCHEMA_PROPERTIES } } },
    },
    async (request, reply) => {
      const limits = applyPatch(NO_LIMITS, limitsPatchFrom(request.body ?? {}, now()));
      checkWithinAccount(limits, request.webUser!.limits);
      await checkRoomForKey(deps, request.webUser!.id);
      checkUsableModels(limits.models, request.webUser!.limits, servedModelIds(deps.router));
      const created = await deps.store.keys.create(request.webUser!.id, request.body?.name ?? null, limits);
      await deps.store.audit.record({ ...webActor(request), action: 'key.create', target: keyTarget(created), details: { name: created.name, limits } });
      return reply.code(201).header('cache-control', 'no-store').send(created);
    },
  );

  // Only the fields sent change; null removes a limit.
  app.patch<{ Params: { id: string }; Body: LimitsFields }>(
    '/web/api/keys/:id',
    { onRequest, preHandler: checkCsrf, schema: { body: { type: 'object', properties: LIMITS_SCHEMA_PROPERTIES, additionalProperties: false } } },
    async (request, reply) => {
      const patch = limitsPatchFrom(request.body, now());
      if (patch.models !== undefined) {
        checkWithinAccount({ models: patch.models }, request.webUser!.limits);
        checkUsableModels(patch.models, request.webUser!.limits, servedModelIds(deps.router));
      }
      const updated = await deps.store.keys.updateLimits(request.params.id, patch, request.webUser!.id);
      if (!updated) return reply.code(404).send({ error: { message: 'No such key among yours.' } });
      revokeEverywhere(deps, { kind: 'key', id: updated.id });
      await deps.store.audit.record({ ...webActor(request), action: 'key.update', target: keyTarget(updated), details: { changed: patch } });
      return withBudgetStandings(deps, updated);
    },
  );

  app.delete<{ Params: { id: string } }>('/web/api/keys/:id', { onRequest, preHandler: checkCsrf }, async (request, reply) => {
    const key = await deps.store.keys.findById(request.params.id);
    const deleted = await deps.store.keys.deleteOwned(request.webUser!.id, request.params.id);
    if (!deleted || !key) return reply.code(404).send({ error: { message: 'No such key among yours.' } });
    revokeEverywhere(deps, { kind: 'key', id: request.params.id });
    await deps.store.audit.record({ ...webActor(request), action: 'key.delete', target: keyTarget(key) });
    return reply.code(204).send();
  });
}
