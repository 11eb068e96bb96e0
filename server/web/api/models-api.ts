// Models the logged-in user may pick in the web apps.
import type { FastifyInstance } from 'fastify';
import type { GatewayDeps } from '../../gateway-deps.ts';
import { requireApi } from '../session/web-session.ts';

export function registerModelsApi(app: FastifyInstance, deps: GatewayDeps): void {
  app.get('/web/api/models', { onRequest: requireApi(deps) }, async () => ({
    text: deps.router.list('text').map((m) => ({ id: m.id, name: m.displayName ?? m.id })),
    image: deps.router.list('image').map((m) => ({ id: m.id, name: m.displayName ?? m.id })),
  }));
}
