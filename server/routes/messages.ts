// POST /v1/messages and /v1/messages/count_tokens: the messages protocol (JSON and SSE).
// Routing matches the path only; a query such as ?beta=true is forwarded as is.
import type { FastifyInstance } from 'fastify';
import type { ApiRoute } from '../api-exchange.ts';
import type { FastLane } from '../fast-lane/fast-lane.ts';
import type { GatewayDeps } from '../gateway-deps.ts';
import { authenticateWith } from '../plugins/api-hooks.ts';
import { registerApiRoute } from './api-route.ts';
import { forwardToProvider } from './forward-to-provider.ts';

// The body is an open format: new fields, block types and message shapes (e.g. `system` entries in
// the middle of `messages`) appear with every client release. Only what routing needs is checked;
// the upstream judges the rest in its own words, which clients' recovery logic matches on.
const messagesSchema = {
  type: 'object',
  required: ['model', 'max_tokens', 'messages'],
  properties: {
    model: { type: 'string', minLength: 1 },
    max_tokens: { type: 'integer' },
    messages: { type: 'array' },
    stream: { type: 'boolean' },
  },
};

const countTokensSchema = {
  type: 'object',
  required: ['model', 'messages'],
  properties: {
    model: { type: 'string', minLength: 1 },
    messages: { type: 'array' },
  },
};

export function messagesRoutes(deps: GatewayDeps): ApiRoute[] {
  const authenticate = authenticateWith(deps, { allowXApiKey: true });
  return [
    {
      url: '/v1/messages',
      bodySchema: messagesSchema,
      authenticate,
      handler: async (request, reply) => {
        const body = request.body as { model: string; stream?: boolean };
        return forwardToProvider(deps, request, reply, { operation: 'messages', kind: 'text', modelName: body.model, stream: body.stream === true });
      },
    },
    {
      url: '/v1/messages/count_tokens',
      bodySchema: countTokensSchema,
      authenticate,
      handler: async (request, reply) => {
        const body = request.body as { model: string };
        return forwardToProvider(deps, request, reply, { operation: 'count_tokens', kind: 'text', modelName: body.model, stream: false });
      },
    },
  ];
}

export function registerMessages(app: FastifyInstance, deps: GatewayDeps, lane?: FastLane): void {
  for (const route of messagesRoutes(deps)) registerApiRoute(app, route, lane);
}
