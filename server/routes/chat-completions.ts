// POST /v1/chat/completions: the chat-completions-compatible interface (JSON and SSE).
import type { FastifyInstance } from 'fastify';
import type { ApiRoute } from '../api-exchange.ts';
import type { FastLane } from '../fast-lane/fast-lane.ts';
import type { GatewayDeps } from '../gateway-deps.ts';
import { authenticateWith } from '../plugins/api-hooks.ts';
import { registerApiRoute } from './api-route.ts';
import { forwardToProvider } from './forward-to-provider.ts';

// An open format like the messages body: only what routing and usage counting need is checked
// (new roles such as `developer`, new fields and part types go to the upstream as sent).
const bodySchema = {
  type: 'object',
  required: ['model', 'messages'],
  properties: {
    model: { type: 'string', minLength: 1 },
    messages: { type: 'array' },
    stream: { type: ['boolean', 'null'] },
    stream_options: { type: ['object', 'null'] },
  },
};

export function chatCompletionsRoute(deps: GatewayDeps): ApiRoute {
  return {
    url: '/v1/chat/completions',
    bodySchema,
    authenticate: authenticateWith(deps, { allowXApiKey: false }),
    handler: async (request, reply) => {
      const body = request.body as { model: string; stream?: boolean; stream_options?: { include_usage?: boolean } | null };
      const stream = body.stream === true;
      // Usage is counted from the upstream's own numbers: ask for them in every stream, and
      // hide the extra chunk from a client that did not ask for it.
      const askUsage = stream && body.stream_options?.include_usage !== true;
      return forwardToProvider(deps, request, reply, {
        operation: 'chat',
        kind: 'text',
        modelName: body.model,
        stream,
        overrides: askUsage ? { stream_options: { ...(body.stream_options ?? {}), include_usage: true } } : undefined,
        stripUsageChunk: askUsage,
      });
    },
  };
}

export function registerChatCompletions(app: FastifyInstance, deps: GatewayDeps, lane?: FastLane): void {
  registerApiRoute(app, chatCompletionsRoute(deps), lane);
}
