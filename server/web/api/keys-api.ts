// JSON calls behind the keys page (session + CSRF): list, create (the value is in this response only), delete.
import type { FastifyInstance } from 'fastify';
import type { GatewayDeps } from '../../gateway-deps.ts';
import { KEY_NAME_MAX_LENGTH } from '../../store/keys-repo.ts';
import { checkCsrf, requireApi } from '../session/web-session.ts';
import { revokeEverywhere } from '../../cluster/revoke-everywhere.ts';

export function registerKeysApi(app: FastifyInstance, deps: GatewayDeps): void {
  const onRequest = requireApi(deps);

  app.get('/web/api/keys', { onRequest }, async (request) => ({ keys: await deps.store.keys.listForUser(request.webUser!.id) }));

  app.post<{ Body: { name?: string | null } }>(
    '/web/api/keys',
    {
      onRequest,
      preHandler: checkCsrf,
      schema: { body: { type: 'object', properties: { name: { type: ['string', 'null'], maxLength: KEY_NAME_MAX_LENGTH } } } },
    },
    async (request, reply) => {
      const created = await deps.store.keys.create(request.webUser!.id, request.body?.name ?? null);
      return reply.code(201).header('cache-control', 'no-store').send(created);
    },
  );

  app.delete<{ Params: { id: string } }>('/web/api/keys/:id', { onRequest, preHandler: checkCsrf }, async (request, reply) => {
    const deleted = await deps.store.keys.deleteOwned(request.webUser!.id, request.params.id);
    if (!deleted) return reply.code(404).send({ error: { message: 'No such key among yours.' } });
    revokeEverywhere(deps, { kind: 'key', id: request.params.id });
    return reply.code(204).send();
  });
}
