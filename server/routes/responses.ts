// POST /v1/responses: the Responses API (JSON and SSE). A model on an upstream that serves the
// Responses API gets the client's bytes; chat-completions and messages upstreams are reached
// through translation (providers/translate/responses-*.ts), the demo model answers itself.
import type { FastifyInstance } from 'fastify';
import type { GatewayDeps } from '../gateway-deps.ts';
import { authenticateWith } from '../plugins/api-hooks.ts';
import { forwardToProvider } from './forward-to-provider.ts';

// An open format like the other routes: only what routing needs is checked; new item types, tools
// and fields go to a Responses upstream as sent (a translation names what it cannot carry).
const bodySchema = {
  type: 'object',
  required: ['model'],
  properties: {
    model: { type: 'string', minLength: 1 },
    input: { type: ['string', 'array'] },
    stream: { type: ['boolean', 'null'] },
  },
};

export function registerResponses(app: FastifyInstance, deps: GatewayDeps): void {
  app.post('/v1/responses', { onRequest: authenticateWith(deps, { allowXApiKey: false }), schema: { body: bodySchema } }, async (request, reply) => {
    const body = request.body as { model: string; stream?: boolean | null };
    return forwardToProvider(deps, request, reply, { operation: 'responses', kind: 'text', modelName: body.model, stream: body.stream === true });
  });
}
