// GET /v1/models (and /v1/models/:id): the models a key may use, in the OpenAI list shape,
// or the messages-protocol shape when the request carries anthropic-version.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GatewayError } from '../errors/gateway-error.ts';
import type { GatewayDeps } from '../gateway-deps.ts';
import { allowedModels } from '../limits/key-enforcement.ts';
import { authenticateWith } from '../plugins/api-hooks.ts';
import type { ModelInfo, ModelKind } from '../providers/provider.ts';

function openAiModel(model: ModelInfo, ownedBy: string) {
  return { id: model.id, object: 'model', created: model.created, owned_by: ownedBy };
}

function messagesModel(model: ModelInfo) {
  return { type: 'model', id: model.id, display_name: model.displayName ?? model.id, created_at: new Date(model.created * 1000).toISOString() };
}

export function registerModels(app: FastifyInstance, deps: GatewayDeps, kind: 'text' | 'image'): void {
  const onRequest = authenticateWith(deps, { allowXApiKey: true });
  const owner = (model: ModelInfo) => deps.router.resolve(model.id)?.provider.name ?? 'gateway';

  // The text address serves embedding models too, to OpenAI-style clients; a messages client can
  // only use the text models.
  const kindsFor = (request: FastifyRequest): ModelKind[] => (kind === 'image' ? ['image'] : request.gateway.surface === 'messages' ? ['text'] : ['text', 'embedding']);
  // A key limited to some models sees only those.
  const modelsFor = (request: FastifyRequest): ModelInfo[] => {
    const models = deps.router.list(...kindsFor(request));
    const allowed = request.gateway.auth && allowedModels(request.gateway.auth);
    return allowed ? models.filter((m) => allowed.includes(m.id)) : models;
  };
  app.get('/v1/models', { onRequest }, async (request) => {
    const models = modelsFor(request);
    if (request.gateway.surface === 'messages') {
      return { data: models.map(messagesModel), has_more: false, first_id: models[0]?.id ?? null, last_id: models.at(-1)?.id ?? null };
    }
    return { object: 'list', data: models.map((m) => openAiModel(m, owner(m))) };
  });

  app.get<{ Params: { id: string } }>('/v1/models/:id', { onRequest }, async (request) => {
    const model = modelsFor(request).find((m) => m.id === request.params.id);
    if (!model) {
      throw new GatewayError(404, 'model_not_found', `The model "${request.params.id}" does not exist or is not available to this key.`, { param: 'model' });
    }
    return request.gateway.surface === 'messages' ? messagesModel(model) : openAiModel(model, owner(model));
  });
}
