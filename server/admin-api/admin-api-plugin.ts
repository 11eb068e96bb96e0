// The operator REST API under /admin/api/v1 on the text listener, for automation: users, keys of
// any user, usage, the audit log, the price table, the support desk (request verdicts, key lookup,
// support bundles). Authenticated by operator tokens (`gwctl admin token create`), described by an
// OpenAPI document at /admin/api/openapi.json (public: it describes, it grants nothing). Its own
// encapsulated context, so the document lists only these routes. Errors use the OpenAI-style
// envelope of the API listener: {"error": {"message", "type", "code", "param"}}.
import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import type { GatewayDeps } from '../gateway-deps.ts';
import { registerAdminAuditRoutes } from './admin-audit-routes.ts';
import { registerAdminKeysRoutes } from './admin-keys-routes.ts';
import { registerAdminSupportRoutes } from './admin-support-routes.ts';
import { registerAdminPricesRoutes } from './admin-prices-routes.ts';
import { registerAdminUsageRoutes } from './admin-usage-routes.ts';
import { registerAdminUsersRoutes } from './admin-users-routes.ts';
import { requireOperatorToken } from './operator-auth.ts';
import { NAMED_SCHEMAS } from './admin-schemas.ts';
import { adminValidatorCompiler } from './admin-validator.ts';

export const OPENAPI_PATH = '/admin/api/openapi.json';

export function registerAdminApi(app: FastifyInstance, deps: GatewayDeps): void {
  app.register(async (admin) => {
    admin.setValidatorCompiler(adminValidatorCompiler());
    for (const [name, schema] of Object.entries(NAMED_SCHEMAS)) admin.addSchema({ $id: name, title: name, ...schema });
    await admin.register(fastifySwagger, {
      // Shared schemas keep their names (User, Key, …) in components.schemas.
      refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
      openapi: {
        openapi: '3.1.0',
        info: { title: 'gwctl operator API', version: '1', description: 'Manage users, their API keys and limits, and read usage. Send an operator token as `Authorization: Bearer <token>`.' },
        components: { securitySchemes: { operatorToken: { type: 'http', scheme: 'bearer', description: 'Created with `gwctl admin token create`' } } },
        security: [{ operatorToken: [] }],
        tags: [{ name: 'users' }, { name: 'keys' }, { name: 'usage' }, { name: 'audit' }, { name: 'prices' }, { name: 'support' }],
      },
    });
    admin.get(OPENAPI_PATH, { schema: { hide: true } }, async (_request, reply) => reply.header('cache-control', 'no-store').send(admin.swagger()));
    admin.register(async (v1) => {
      v1.addHook('onRequest', requireOperatorToken(deps));
      registerAdminUsersRoutes(v1, deps);
      registerAdminKeysRoutes(v1, deps);
      registerAdminUsageRoutes(v1, deps);
      registerAdminAuditRoutes(v1, deps);
      registerAdminSupportRoutes(v1, deps);
      registerAdminPricesRoutes(v1, deps);
    });
  });
}
