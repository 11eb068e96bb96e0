// POST /v1/embeddings: embedding models (kind `embedding` in the providers file) on chat-completions
// upstreams, passed through with the client's bytes, on Gemini upstreams through translation
// (protocols/gemini/embeddings.ts), and the demo embedding model. Usage counts the upstream's prompt
// tokens, or the gateway's estimate where the upstream reports none.
import type { FastifyInstance } from 'fastify';
import type { GatewayDeps } from '../gateway-deps.ts';
import { authenticateWith } from '../plugins/api-hooks.ts';
import { forwardToProvider } from './forward-to-provider.ts';

const bodySchema = {
  type: 'object',
  required: ['model', 'input'],
  properties: {
    model: { type: 'string', minLength: 1 },
    input: { type: ['string', 'array'] },
  },
};

export function registerEmbeddings(app: FastifyInstance, deps: GatewayDeps): void {
  app.post('/v1/embeddings', { onRequest: authenticateWith(deps, { allowXApiKey: false }), schema: { body: bodySchema } }, async (request, reply) => {
    const body = request.body as { model: string };
    return forwardToProvider(deps, request, reply, { operation: 'embeddings', kind: 'embedding', modelName: body.model, stream: false });
  });
}
