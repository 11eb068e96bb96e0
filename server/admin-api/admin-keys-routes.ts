// Operator API, keys of any user: list, create (the value is in that response only), change limits,
// delete. Changes reach every instance's key cache at once, like the owner's own changes.
import { checkRoomForKey } from '../limits/key-count.ts';
import type { FastifyInstance } from 'fastify';
import { keyTarget, tokenActor } from '../audit/audit-targets.ts';
import { revokeEverywhere } from '../cluster/revoke-everywhere.ts';
import { GatewayError } from '../errors/gateway-error.ts';
import type { GatewayDeps } from '../gateway-deps.ts';
import { checkUsableModels, servedModelIds } from '../limits/account-bound.ts';
import { applyPatch, NO_LIMITS } from '../limits/key-limits.ts';
import { limitsPatchFrom, type LimitsFields } from '../limits/limits-input.ts';
import { standings } from '../limits/quota-guard.ts';
import { KEY_NAME_MAX_LENGTH, type ApiKeyRecord } from '../store/keys-repo.ts';
import { authErrors, errorSchema, keyLimitsInput, limitsBodyProperties, ref } from './admin-schemas.ts';
import { flattenLimits, type NestedLimits } from './limits-shape.ts';

const tags = ['keys'];
const idParam = { type: 'object', required: ['id'], properties: { id: { type: 'string' } } } as const;
const keyNotFound = (id: string) => new GatewayError(404, 'key_not_found', `No key with id "${id}". GET /admin/api/v1/keys lists them.`);

export function registerAdminKeysRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  const withUser = async (keys: ApiKeyRecord[]) => {
    const names = new Map((await deps.store.users.list()).map((u) => [u.id, u.username]));
    const now = (deps.now ?? Date.now)();
    return Promise.all(
      keys.map(async (k) => ({ ...k, user: names.get(k.userId) ?? k.userId, budgetStatus: await standings(deps.budgets, { subject: `key:${k.id}`, budgets: k.limits.budgets }, now) })),
    );
  };

  app.get<{ Querystring: { user?: string } }>(
    '/admin/api/v1/keys',
    {
      schema: {
        tags,
        summary: 'List keys (masked), of every user or of one',
        querystring: { type: 'object', properties: { user: { type: 'string', description: 'Only this user\'s keys' } } },
        response: { 200: { type: 'object', properties: { keys: { type: 'array', items: ref('Key') } } }, 404: errorSchema, ...authErrors },
      },
    },
    async (request) => {
      if (!request.query.user) return { keys: await withUser(await deps.store.keys.listAll()) };
      const user = await deps.store.users.findByName(request.query.user);
      if (!user) throw new GatewayError(404, 'user_not_found', `No user named "${request.query.user}".`, { param: 'user' });
      return { keys: await withUser(await deps.store.keys.listForUser(user.id)) };
    },
  );

  app.post<{ Body: { user: string; name?: string | null; limits?: NestedLimits } & LimitsFields }>(
    '/admin/api/v1/keys',
    {
      schema: {
        tags,
        summary: 'Create a key for a user; the full value is returned by this call only',
        body: {
          type: 'object',
          required: ['user'],
          additionalProperties: false,
          properties: { user: { type: 'string' }, name: { type: ['string', 'null'], maxLength: KEY_NAME_MAX_LENGTH }, limits: keyLimitsInput, ...limitsBodyProperties },
        },
        response: { 201: ref('CreatedKey'), 400: errorSchema, 404: errorSchema, 409: errorSchema, ...authErrors },
      },
    },
    async (request, reply) => {
      const { user: username, name, limits: nested, ...fields } = request.body;
      const user = await deps.store.users.findByName(username);
      if (!user) throw new GatewayError(404, 'user_not_found', `No user named "${username}".`, { param: 'user' });
      await checkRoomForKey(deps, user.id);
      const limits = applyPatch(NO_LIMITS, limitsPatchFrom(flattenLimits(nested, fields)));
      checkUsableModels(limits.models, user.limits, servedModelIds(deps.router));
      const created = await deps.store.keys.create(user.id, name ?? null, limits);
      await deps.store.audit.record({ ...tokenActor(request), action: 'key.create', target: keyTarget(created), details: { user: user.username, name: created.name, limits: created.limits } });
      return reply.code(201).header('cache-control', 'no-store').send({ ...created, user: user.username });
    },
  );

  app.patch<{ Params: { id: string }; Body: LimitsFields & { limits?: NestedLimits } }>(
    '/admin/api/v1/keys/:id',
    {
      schema: {
        tags,
        summary: "Change a key's limits; fields not sent stay, null removes one",
        params: idParam,
        body: { type: 'object', additionalProperties: false, properties: { limits: keyLimitsInput, ...limitsBodyProperties } },
        response: { 200: ref('Key'), 400: errorSchema, 404: errorSchema, ...authErrors },
      },
    },
    async (request) => {
      const { limits: nested, ...flat } = request.body ?? {};
      const patch = limitsPatchFrom(flattenLimits(nested, flat));
      if (patch.models) {
        const key = await deps.store.keys.findById(request.params.id);
        const owner = key && (await deps.store.users.findById(key.userId));
        if (owner) checkUsableModels(patch.models, owner.limits, servedModelIds(deps.router));
      }
      const updated = await deps.store.keys.updateLimits(request.params.id, patch);
      if (!updated) throw keyNotFound(request.params.id);
      revokeEverywhere(deps, { kind: 'key', id: updated.id });
      await deps.store.audit.record({ ...tokenActor(request), action: 'key.update', target: keyTarget(updated), details: { changed: patch } });
      return (await withUser([updated]))[0];
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/admin/api/v1/keys/:id',
    { schema: { tags, summary: 'Delete a key: requests with it answer 401 from the next one on, on every instance', params: idParam, response: { 204: { type: 'null', description: 'Deleted' }, 404: errorSchema, ...authErrors } } },
    async (request, reply) => {
      const deleted = await deps.store.keys.deleteById(request.params.id);
      if (!deleted) throw keyNotFound(request.params.id);
      revokeEverywhere(deps, { kind: 'key', id: deleted.id });
      await deps.store.audit.record({ ...tokenActor(request), action: 'key.delete', target: keyTarget(deleted) });
      return reply.code(204).send();
    },
  );
}
