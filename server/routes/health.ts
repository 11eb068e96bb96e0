// GET /health on both listeners: 200 when the database answers, 503 otherwise.
import type { FastifyInstance } from 'fastify';
import type { GatewayDeps } from '../gateway-deps.ts';

export function registerHealth(app: FastifyInstance, deps: GatewayDeps): void {
  app.get('/health', async (_request, reply) => {
    if (await deps.store.ping()) return { status: 'ok' };
    return reply.code(503).send({ status: 'unavailable', reason: 'the database does not answer' });
  });
}
