// GET /metrics: Prometheus text format, on the text listener, for scrapers holding the metrics token
// (GWCTL_METRICS_TOKEN, environment only). Without a token configured the endpoint is off.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../errors/gateway-error.ts';
import type { GatewayDeps } from '../gateway-deps.ts';

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function registerMetrics(app: FastifyInstance, deps: GatewayDeps, token: string | undefined): void {
  app.get('/metrics', async (request, reply) => {
    if (!deps.metrics || !token) {
      throw new GatewayError(404, 'metrics_off', 'Metrics are off on this gateway. The operator enables them by starting the gateway with the environment variable GWCTL_METRICS_TOKEN set (there is no flag: it is a secret) and scrapes with that token as a Bearer credential.');
    }
    const given = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (!given || !sameSecret(given, token)) {
      throw new GatewayError(401, 'metrics_token_required', 'Send the metrics token as `Authorization: Bearer <token>`.');
    }
    const text = await deps.metrics.registry.metrics();
    return reply.type(deps.metrics.registry.contentType).send(text);
  });
}
