// Operator API, support desk: a request's verdict by its id, a key lookup by id, masked hint or
// fingerprint, an account overview, and the verdict over a user's support bundle.
import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../errors/gateway-error.ts';
import type { GatewayDeps } from '../gateway-deps.ts';
import { explainRequest } from '../support/explain-request.ts';
import { findKey } from '../support/find-key.ts';
import { BundleError, readSupportBundle } from '../support/support-bundle.ts';
import { supportVerdict } from '../support/support-verdict.ts';
import { userOverview } from '../support/user-overview.ts';
import { REQUEST_LOG_RETENTION_DAYS } from '../usage/request-log.ts';
import { authErrors, errorSchema, ref } from './admin-schemas.ts';

const tags = ['support'];

export function registerAdminSupportRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  const options = { publicUrl: deps.settings.publicUrl };

  app.get<{ Params: { id: string } }>(
    '/admin/api/v1/requests/:id',
    {
      schema: {
        tags,
        summary: 'Explain one request by its request id (the gateway\'s x-request-id, or the upstream\'s request id)',
        params: { type: 'object', required: ['id'], properties: { id: { type: 'string', minLength: 1, maxLength: 200 } } },
        response: { 200: ref('RequestVerdict'), 404: errorSchema, ...authErrors },
      },
    },
    async (request) => {
      const verdict = await explainRequest(deps.store, request.params.id, options);
      if (!verdict) {
        throw new GatewayError(
          404,
          'request_not_found',
          `No request with id "${request.params.id}" in the request log (kept ${REQUEST_LOG_RETENTION_DAYS} days, written about once a second). Check the id: the x-request-id or request-id header of the answer, or the id in its error body.`,
        );
      }
      return verdict;
    },
  );

  app.get<{ Querystring: { q: string } }>(
    '/admin/api/v1/keys/find',
    {
      schema: {
        tags,
        summary: 'Find keys (live and deleted) and refused values by key id, masked hint (sk-…a1b2) or fingerprint',
        querystring: { type: 'object', additionalProperties: false, required: ['q'], properties: { q: { type: 'string', minLength: 1, maxLength: 200 } } },
        response: { 200: ref('KeyFind'), 400: errorSchema, ...authErrors },
      },
    },
    async (request) => findKey(deps.store, request.query.q),
  );

  app.get<{ Params: { name: string } }>(
    '/admin/api/v1/users/:name/overview',
    {
      schema: {
        tags,
        summary: 'One account for support: state, limits, keys (live and deleted), recent failures by cause',
        params: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
        response: { 200: ref('UserOverview'), 404: errorSchema, ...authErrors },
      },
    },
    async (request) => {
      const overview = await userOverview(deps.store, request.params.name);
      if (!overview) throw new GatewayError(404, 'user_not_found', `No user named "${request.params.name}". GET /admin/api/v1/users lists them.`);
      return overview;
    },
  );

  app.post<{ Body: unknown }>(
    '/admin/api/v1/support',
    {
      schema: {
        tags,
        summary: "One verdict over a user's support bundle (the file of `gwctl diagnose --report FILE`) and the request log",
        body: { type: 'object', description: 'The support bundle, unchanged' },
        response: { 200: ref('SupportVerdict'), 400: errorSchema, ...authErrors },
      },
    },
    async (request) => {
      let bundle;
      try {
        bundle = readSupportBundle(request.body);
      } catch (error) {
        if (error instanceof BundleError) throw new GatewayError(400, 'invalid_bundle', error.message);
        throw error;
      }
      return supportVerdict(deps.store, bundle, options);
    },
  );
}
