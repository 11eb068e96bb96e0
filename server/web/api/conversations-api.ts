// The chat history of the logged-in user: list, read one, delete. Other users' ids answer 404.
import type { FastifyInstance } from 'fastify';
import type { GatewayDeps } from '../../gateway-deps.ts';
import { checkCsrf, requireApi } from '../session/web-session.ts';

export function registerConversationsApi(app: FastifyInstance, deps: GatewayDeps): void {
  const onRequest = requireApi(deps);
  app.get('/web/api/conversations', { onRequest }, async (request) => ({ conversations: await deps.store.conversations.list(request.webUser!.id) }));

  app.get<{ Params: { id: string } }>('/web/api/conversations/:id', { onRequest }, async (request, reply) => {
    const conversation = await deps.store.conversations.find(request.webUser!.id, request.params.id);
    return conversation ?? reply.code(404).send({ error: { message: 'No such conversation among yours.' } });
  });

  app.delete<{ Params: { id: string } }>('/web/api/conversations/:id', { onRequest, preHandler: checkCsrf }, async (request, reply) => {
    const deleted = await deps.store.conversations.delete(request.webUser!.id, request.params.id);
    return deleted ? reply.code(204).send() : reply.code(404).send({ error: { message: 'No such conversation among yours.' } });
  });
}
