// POST /v1/images/generations on the image listener (OpenAI shape).
import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../errors/gateway-error.ts';
import type { GatewayDeps } from '../gateway-deps.ts';
import { authenticateWith } from '../plugins/api-hooks.ts';
import { forwardToProvider } from './forward-to-provider.ts';

const bodySchema = {
  type: 'object',
  required: ['prompt'],
  properties: {
    prompt: { type: 'string', minLength: 1, maxLength: 32000 },
    model: { type: 'string', minLength: 1 },
    n: { type: ['integer', 'null'], minimum: 1, maximum: 10 },
    size: { type: ['string', 'null'], pattern: '^(auto|[0-9]{1,5}x[0-9]{1,5})$' },
    response_format: { type: ['string', 'null'], enum: ['b64_json', 'url', null] },
  },
};

export function registerImages(app: FastifyInstance, deps: GatewayDeps): void {
  app.post('/v1/images/generations', { onRequest: authenticateWith(deps, { allowXApiKey: false }), schema: { body: bodySchema } }, async (request, reply) => {
    const body = request.body as { model?: string };
    const modelName = body.model ?? deps.router.list('image')[0]?.id;
    if (!modelName) throw new GatewayError(404, 'model_not_found', 'This gateway has no image model configured.', { param: 'model' });
    return forwardToProvider(deps, request, reply, { operation: 'images', kind: 'image', modelName, stream: false });
  });
}
