// The Gemini API for clients (Gemini CLI, the genai SDKs): GET /v1beta/models[/{model}], and POST
// /v1beta/models/{model}:{method} for generateContent, streamGenerateContent (server-sent events
// with ?alt=sse, a JSON array without it), countTokens, embedContent and batchEmbedContents. The key
// comes as x-goog-api-key, ?key= or Bearer; errors come in Gemini's envelope. Any text model answers,
// whatever protocol its upstream speaks (server/protocols/ translates through the canonical model).
import type { FastifyInstance } from 'fastify';
import type { ApiReply, ApiRequest, ApiRoute } from '../api-exchange.ts';
import { GatewayError } from '../errors/gateway-error.ts';
import type { GatewayDeps } from '../gateway-deps.ts';
import { allowedModels } from '../limits/key-enforcement.ts';
import { authenticateWith } from '../plugins/api-hooks.ts';
import type { ModelInfo, ModelKind, Operation } from '../providers/provider.ts';
import type { FastLane } from '../fast-lane/fast-lane.ts';
import { registerApiRoute } from './api-route.ts';
import { forwardToProvider } from './forward-to-provider.ts';
import { queryValue } from '../query-value.ts';

const GENERATION = ['generateContent', 'streamGenerateContent', 'countTokens'];
const EMBEDDING = ['embedContent', 'batchEmbedContents'];

const METHODS: Record<string, { operation: Operation; kind: ModelKind; stream?: true }> = {
  generateContent: { operation: 'gemini', kind: 'text' },
  streamGenerateContent: { operation: 'gemini', kind: 'text', stream: true },
  countTokens: { operation: 'gemini_count_tokens', kind: 'text' },
  embedContent: { operation: 'gemini_embed', kind: 'embedding' },
  batchEmbedContents: { operation: 'gemini_batch_embed', kind: 'embedding' },
};

function geminiModel(model: ModelInfo) {
  return {
    name: `models/${model.id}`,
    version: '1',
    displayName: model.displayName ?? model.id,
    supportedGenerationMethods: model.kind === 'embedding' ? EMBEDDING : GENERATION,
  };
}

/** `/v1beta/models/{model}:{method}` -> its parts (the model may carry a `models/` prefix, percent-encoded). */
function target(url: string): { model: string; method: string } {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  const encoded = path.slice(path.lastIndexOf('/models/') + '/models/'.length);
  const last = encoded.indexOf('%') === -1 ? encoded : decodeURIComponent(encoded);
  const colon = last.lastIndexOf(':');
  return colon === -1 ? { model: last, method: '' } : { model: last.slice(0, colon), method: last.slice(colon + 1) };
}

const wantsSse = (url: string): boolean => queryValue(url, 'alt') === 'sse';

export function geminiGenerateRoute(deps: GatewayDeps): ApiRoute {
  return {
    url: '/v1beta/models/:target',
    lanePrefix: '/v1beta/models/',
    bodySchema: { type: 'object' },
    authenticate: authenticateWith(deps, { allowXApiKey: false }),
    handler: async (request: ApiRequest, reply: ApiReply) => {
      const { model, method } = target(request.url);
      const action = METHODS[method];
      if (!action) {
        const known = Object.keys(METHODS).join(', ');
        throw new GatewayError(404, 'unknown_method', `"${method || '(none)'}" is not a method of models/${model}. POST ${deps.settings.publicUrl}/v1beta/models/{model}:{method} with one of ${known}.`);
      }
      return forwardToProvider(deps, request, reply, {
        operation: action.operation,
        kind: action.kind,
        modelName: model,
        stream: action.stream === true,
        streamFraming: action.stream && !wantsSse(request.url) ? 'json-array' : 'sse',
      });
    },
  };
}

export function registerGemini(app: FastifyInstance, deps: GatewayDeps, lane?: FastLane): void {
  const onRequest = authenticateWith(deps, { allowXApiKey: false });
  const modelsFor = (request: ApiRequest): ModelInfo[] => {
    const models = deps.router.list('text', 'embedding');
    const allowed = request.gateway.auth && allowedModels(request.gateway.auth);
    return allowed ? models.filter((m) => allowed.includes(m.id)) : models;
  };
  app.get('/v1beta/models', { onRequest }, async (request) => ({ models: modelsFor(request).map(geminiModel) }));
  app.get<{ Params: { model: string } }>('/v1beta/models/:model', { onRequest }, async (request) => {
    const name = request.params.model.replace(/^models\//, '');
    const colon = name.lastIndexOf(':');
    if (colon !== -1) {
      const method = name.slice(colon + 1);
      throw new GatewayError(404, 'unknown_method', `GET ${request.url.split('?', 1)[0]} asks for a method with GET; methods are called with POST: POST ${deps.settings.publicUrl}/v1beta/models/${name.slice(0, colon)}:${method}.`);
    }
    const models = modelsFor(request);
    const model = models.find((m) => m.id === name);
    if (!model) {
      throw new GatewayError(404, 'model_not_found', `The model "${name}" does not exist or is not available to this key. Served: ${models.map((m) => m.id).join(', ') || '(none)'}.`);
    }
    return geminiModel(model);
  });
  registerApiRoute(app, geminiGenerateRoute(deps), lane);
}
