// The operator REST API under /admin/api/v1 on the text listener, for automation: users, keys of
// any user, usage, the audit log, the price table, the support desk (request verdicts, key lookup,
// support bundles). Authenticated by operator tokens (`gwctl admin token create`), described by an
// OpenAPI document at /admin/api/openapi.json (public: it describes, it grants nothing). Its own
// encapsulated context, so the document lists only these routes. Errors use the OpenAI-style
// envelope of the API listener: {"error": {"message", "type", "code", "param"}}.
import type { FastifyInstance } from 'fastify';
import type { GatewayDeps } from '../gateway-deps.ts';
import { prepareAdminContext, registerAdminRoutes } from './admin-routes.ts';
import { writeOpenApiDocument } from './openapi-document.ts';
import { requireOperatorToken } from './operator-auth.ts';

export const OPENAPI_PATH = '/admin/api/openapi.json';

export function registerAdminApi(app: FastifyInstance, deps: GatewayDeps): void {
  app.register(async (admin) => {
    prepareAdminContext(admin);
    // Written on the first request (openapi-document.ts), then kept: the routes do not change while the gateway runs.
    let document: Promise<unknown> | undefined;
    admin.get(OPENAPI_PATH, { schema: { hide: true } }, async (_request, reply) => {
      document ??= writeOpenApiDocument(deps).catch((error: unknown) => {
        document = undefined;
        throw error;
      });
      return reply.header('cache-control', 'no-store').send(await document);
    });
    admin.register(async (v1) => {
      v1.addHook('onRequest', requireOperatorToken(deps));
      registerAdminRoutes(v1, deps);
    });
  });
}
