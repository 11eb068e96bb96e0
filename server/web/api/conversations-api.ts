// The chat history of the logged-in user: list (with a search over titles and message text), read
// one, rename or set its system prompt, delete. Other users' ids answer 404 like unknown ones.
import type { FastifyInstance } from 'fastify';
import type { GatewayDeps } from '../../gateway-deps.ts';
import { checkCsrf, requireApi } from '../session/web-session.ts';
import { checkSearch, checkSystemPrompt, checkTitle, InputError } from './conversation-input.ts';

export const NOT_YOURS = 'No such conversation among yours.';

interface ChangeBody {
  title?: string;
  systemPrompt?: string;
}

export function registerConversationsApi(app: FastifyInstance, deps: GatewayDeps): void {
  const onRequest = requireApi(deps);

  app.get<{ Querystring: { q?: string } }>(
    '/web/api/conversations',
    { onRequest, schema: { querystring: { type: 'object', properties: { q: { type: 'string' } } } } },
    async (request) => ({ conversations: await deps.store.conversations.list(request.webUser!.id, { search: checkSearch(request.query.q ?? '') }) }),
  );

  app.get<{ Params: { id: string } }>('/web/api/conversations/:id', { onRequest }, async (request, reply) => {
    const conversation = await deps.store.conversations.find(request.webUser!.id, request.params.id);
    return conversation ?? reply.code(404).send({ error: { message: NOT_YOURS } });
  });

  app.patch<{ Params: { id: string }; Body: ChangeBody }>(
    '/web/api/conversations/:id',
    {
      onRequest,
      preValidation: checkCsrf,
      schema: {
        body: { type: 'object', properties: { title: { type: 'string' }, systemPrompt: { type: 'string' } } },
      },
    },
    async (request, reply) => {
      const { title, systemPrompt } = request.body ?? {};
      if (title === undefined && systemPrompt === undefined) throw new InputError('Send a new title or system prompt.');
      const changes = {
        ...(title === undefined ? {} : { title: checkTitle(title) }),
        ...(systemPrompt === undefined ? {} : { systemPrompt: checkSystemPrompt(systemPrompt) }),
      };
      const userId = request.webUser!.id;
      if (!(await deps.store.conversations.update(userId, request.params.id, changes))) return reply.code(404).send({ error: { message: NOT_YOURS } });
      const updated = (await deps.store.conversations.find(userId, request.params.id))!;
      return { id: updated.id, title: updated.title, model: updated.model, systemPrompt: updated.systemPrompt, createdAt: updated.createdAt, updatedAt: updated.updatedAt };
    },
  );

  app.delete<{ Params: { id: string } }>('/web/api/conversations/:id', { onRequest, preHandler: checkCsrf }, async (request, reply) => {
    const deleted = await deps.store.conversations.delete(request.webUser!.id, request.params.id);
    return deleted ? reply.code(204).send() : reply.code(404).send({ error: { message: NOT_YOURS } });
  });
}
