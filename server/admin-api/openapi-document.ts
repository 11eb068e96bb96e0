// The operator API's OpenAPI 3.1 document, written once, on the first request for it: the routes are
// registered on a throwaway fastify instance with @fastify/swagger, which reads their schemas, and the
// instance is closed. The running gateway never loads @fastify/swagger (nor the YAML library it
// brings), which keeps its idle memory down; the document is the same as if it had.
import type { GatewayDeps } from '../gateway-deps.ts';
import { prepareAdminContext, registerAdminRoutes } from './admin-routes.ts';

export async function writeOpenApiDocument(deps: GatewayDeps): Promise<unknown> {
  const [{ default: Fastify }, { default: fastifySwagger }] = await Promise.all([import('fastify'), import('@fastify/swagger')]);
  const doc = Fastify({ logger: false });
  // @fastify/swagger decorates the context it is registered in, not the root.
  let described: { swagger(): unknown } | undefined;
  try {
    await doc.register(async (admin) => {
      prepareAdminContext(admin);
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
      await admin.register(async (v1) => registerAdminRoutes(v1, deps));
      described = admin as unknown as { swagger(): unknown };
    });
    await doc.ready();
    return described!.swagger();
  } finally {
    await doc.close();
  }
}
