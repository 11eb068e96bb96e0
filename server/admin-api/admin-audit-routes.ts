// Operator API, audit log: who changed which key, user or operator token, when and from where.
import type { FastifyInstance } from 'fastify';
import type { GatewayDeps } from '../gateway-deps.ts';
import { authErrors, errorSchema, ref } from './admin-schemas.ts';

export function registerAdminAuditRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  app.get<{ Querystring: { limit?: number; action?: string } }>(
    '/admin/api/v1/audit',
    {
      schema: {
        tags: ['audit'],
        summary: 'The audit log, newest first (keys appear by id and masked hint, never by value)',
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 }, action: { type: 'string', description: 'e.g. key.delete' } },
        },
        response: { 200: { type: 'object', properties: { entries: { type: 'array', items: ref('AuditEntry') } } }, 400: errorSchema, ...authErrors },
      },
    },
    async (request) => ({ entries: await deps.store.audit.list({ limit: request.query.limit, action: request.query.action }) }),
  );
}
