// Every route of the operator API and the named schemas they share, registered on the live
// gateway and, once, on the throwaway instance that writes the OpenAPI document.
import type { FastifyInstance } from 'fastify';
import type { GatewayDeps } from '../gateway-deps.ts';
import { registerAdminAuditRoutes } from './admin-audit-routes.ts';
import { registerAdminKeysRoutes } from './admin-keys-routes.ts';
import { registerAdminPricesRoutes } from './admin-prices-routes.ts';
import { NAMED_SCHEMAS } from './admin-schemas.ts';
import { registerAdminSupportRoutes } from './admin-support-routes.ts';
import { registerAdminUsageRoutes } from './admin-usage-routes.ts';
import { registerAdminUsersRoutes } from './admin-users-routes.ts';
import { adminValidatorCompiler } from './admin-validator.ts';
import { lazyValidatorCompiler } from '../plugins/lazy-schema-compilers.ts';

/** The operator API's validator and its named schemas (User, Key, …), on one encapsulated context. */
export function prepareAdminContext(admin: FastifyInstance): void {
  admin.setValidatorCompiler(lazyValidatorCompiler(adminValidatorCompiler()));
  for (const [name, schema] of Object.entries(NAMED_SCHEMAS)) admin.addSchema({ $id: name, title: name, ...schema });
}

export function registerAdminRoutes(v1: FastifyInstance, deps: GatewayDeps): void {
  registerAdminUsersRoutes(v1, deps);
  registerAdminKeysRoutes(v1, deps);
  registerAdminUsageRoutes(v1, deps);
  registerAdminAuditRoutes(v1, deps);
  registerAdminSupportRoutes(v1, deps);
  registerAdminPricesRoutes(v1, deps);
}
