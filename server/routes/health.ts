// Probes on both listeners, for supervisors and load balancers:
// - GET /health: liveness. 200 while the process serves requests at all (restart it if not).
// - GET /ready: readiness. 200 when the database answers, Redis (when configured) is connected and
//   the instance is not shutting down; 503 with the reasons otherwise (send traffic elsewhere).
import type { FastifyInstance } from 'fastify';
import type { GatewayDeps } from '../gateway-deps.ts';

export function registerHealth(app: FastifyInstance, deps: GatewayDeps): void {
  app.get('/health', async () => ({ status: 'ok' }));

  app.get('/ready', async (_request, reply) => {
    const reasons: string[] = [];
    if (deps.lifecycle?.notReady) reasons.push('shutting down');
    if (!(await deps.store.ping())) reasons.push('the database does not answer');
    if (deps.cluster && !deps.cluster.connected) reasons.push('Redis is not connected');
    if (reasons.length === 0) return { status: 'ready' };
    return reply.code(503).header('retry-after', '1').send({ status: 'unavailable', reasons });
  });
}
