// The shared path of every generation route: resolve the model to its providers, and for each in
// turn (priority, weight, health) build the upstream request (the client's bytes for a provider of
// the same protocol, a translation otherwise), send it with retries, fall back on failures that
// happened before any byte reached the client, and relay the first usable answer.
import type { ApiReply, ApiRequest } from '../api-exchange.ts';
import { GatewayError } from '../errors/gateway-error.ts';
import { allowedModels, checkModelAllowed } from '../limits/key-enforcement.ts';
import type { GatewayDeps } from '../gateway-deps.ts';
import { routingOf, type Route } from '../providers/model-router.ts';
import { UpstreamError, type ModelKind, type Operation, type ProviderResponse } from '../providers/provider.ts';
import { backoffMs, isRetryableStatus, retrySameProvider } from '../providers/routing/retry-policy.ts';
import { noteUpstream } from '../usage/request-log-support.ts';
import { TranslationError } from '../protocols/shared/translation-error.ts';
import { adaptationFor, DEFAULT_TRANSLATION, type Translator } from '../protocols/translation.ts';
import { settleAnswer } from '../relay/settle-answer.ts';
import { RequestAbort } from '../relay/request-abort.ts';
import { readUpstreamBody, relayResponse, sendUpstreamError, type BufferedResponse, type RelayOptions, type UpstreamTiming } from '../relay/relay-response.ts';

/**
 * Client headers a same-protocol upstream receives. Every `anthropic-*` header is an open list
 * (versions, betas, workspace ids, names not invented yet) that travels with the body it describes;
 * on the chat-completions side only the beta flag does (organisation and project headers name the
 * client's own account, not the gateway's).
 */
function protocolHeaders(request: ApiRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  if (request.gateway.surface !== 'messages') {
    const beta = request.headers['openai-beta'];
    if (typeof beta === 'string') headers['openai-beta'] = beta;
    return headers;
  }
  for (const name in request.headers) {
    const value = request.headers[name];
    if (typeof value === 'string' && name.startsWith('anthropic-')) headers[name] = value;
  }
  return headers;
}

const ENDPOINT_OF: Record<Operation, string> = {
  chat: '/v1/chat/completions',
  messages: '/v1/messages',
  count_tokens: '/v1/messages/count_tokens',
  images: '/v1/images/generations',
  responses: '/v1/responses',
  response_lookup: '/v1/responses/{id}',
  embeddings: '/v1/embeddings',
  gemini: '/v1beta/models/{model}:generateContent',
  gemini_count_tokens: '/v1beta/models/{model}:countTokens',
  gemini_embed: '/v1beta/models/{model}:embedContent',
  gemini_batch_embed: '/v1beta/models/{model}:batchEmbedContents',
};

const PROTOCOL_NAME: Record<Operation, string> = {
  chat: 'chat-completions',
  messages: 'messages-protocol',
  count_tokens: 'messages-protocol',
  images: 'image',
  responses: 'Responses',
  response_lookup: 'Responses',
  embeddings: 'embeddings',
  gemini: 'Gemini API',
  gemini_count_tokens: 'Gemini API',
  gemini_embed: 'Gemini embeddings',
  gemini_batch_embed: 'Gemini embeddings',
};

export interface ForwardOptions {
  operation: Operation;
  kind: ModelKind;
  modelName: string;
  stream: boolean;
  /** Fields the gateway must set on a same-protocol upstream request (the client's bytes are kept otherwise). */
  overrides?: Record<string, unknown>;
  stripUsageChunk?: boolean;
  /** How a stream reaches the client: server-sent events, or a JSON array (Gemini without alt=sse). */
  streamFraming?: 'sse' | 'json-array';
}

interface PreparedRequest {
  operation: Operation;
  json: Record<string, unknown>;
  body: Buffer;
  translator?: Translator;
}

/** The request for one route, or undefined when its provider cannot serve the operation at all. */
function prepare(route: Route, request: ApiRequest, options: ForwardOptions): PreparedRequest | undefined {
  const adaptation = adaptationFor(route.provider, options.operation, route.model.upstreamModel);
  if (!adaptation) return undefined;
  const json = request.body as Record<string, unknown>;
  if (adaptation.translator) {
    const translator = adaptation.translator.forRequest?.(json) ?? adaptation.translator;
    const translated = translator.request(json, route.model.upstreamModel, route.provider.translation ?? DEFAULT_TRANSLATION, options.stream);
    return { operation: adaptation.operation, json: translated, body: Buffer.from(JSON.stringify(translated)), translator };
  }
  // Gemini names the model in the path, which the provider builds from upstreamModel.
  const renamed = route.model.upstreamModel !== route.model.id && !adaptation.operation.startsWith('gemini');
  const changed = renamed || options.overrides !== undefined;
  const upstreamJson = changed ? { ...json, ...options.overrides, ...(renamed ? { model: route.model.upstreamModel } : {}) } : json;
  return { operation: adaptation.operation, json: upstreamJson, body: changed ? Buffer.from(JSON.stringify(upstreamJson)) : request.rawBody!, translator: undefined };
}

const article = (word: string) => (/^[aeio]/i.test(word) ? 'an' : 'a');

/** 404 for a model name nobody serves: the served ones of that kind, and where the client's protocol lists them. */
function unknownModel(deps: GatewayDeps, request: ApiRequest, options: ForwardOptions): GatewayError {
  const listUrl = options.kind === 'image' ? `${deps.settings.publicImageUrl}/v1/models` : request.gateway.surface === 'gemini' ? `${deps.settings.publicUrl}/v1beta/models` : `${deps.settings.publicUrl}/v1/models`;
  const allowed = request.gateway.auth && allowedModels(request.gateway.auth);
  const served = deps.router.list(options.kind).map((m) => m.id).filter((id) => !allowed || allowed.includes(id));
  const shown = served.length > 12 ? `${served.slice(0, 12).join(', ')} and ${served.length - 12} more` : served.join(', ');
  return new GatewayError(
    404,
    'model_not_found',
    `The model "${options.modelName}" does not exist or is not available to this key.${served.length ? ` Served here: ${shown}.` : ''} GET ${listUrl} lists the models you can use.`,
    { param: 'model' },
  );
}

function notServable(route: Route, operation: Operation): GatewayError {
  return new GatewayError(
    400,
    'protocol_not_supported',
    `The model "${route.model.id}" is served by ${article(route.provider.type)} ${route.provider.type} upstream, which cannot answer ${ENDPOINT_OF[operation]} (the protocols have no equivalent for it).`,
    { param: 'model' },
  );
}

export async function forwardToProvider(deps: GatewayDeps, request: ApiRequest, reply: ApiReply, options: ForwardOptions): Promise<ApiReply> {
  const candidates = deps.router.candidates(options.modelName).filter((r) => r.model.kind === options.kind);
  if (candidates.length === 0) throw unknownModel(deps, request, options);
  request.gateway.model = candidates[0]!.model.id;
  if (options.modelName !== request.gateway.model) request.gateway.requestedModel = options.modelName;
  if (request.gateway.auth) checkModelAllowed(request.gateway.auth, options.modelName, request.gateway.model);

  const headers = protocolHeaders(request);
  // Aborted by the response's close handler (api-hooks) when the client leaves early.
  const abort = new RequestAbort();
  request.gateway.abort = abort;
  const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
  const timing: UpstreamTiming = { upstreamMs: 0 };
  const health = deps.router.health;
  let attempts = 0;
  let refusal: Error | undefined;
  let lastError: UpstreamError | undefined;
  let lastAnswer: { response: BufferedResponse; options: RelayOptions } | undefined;

  for (const route of candidates) {
    const provider = route.provider;
    let prepared: PreparedRequest | undefined;
    try {
      prepared = prepare(route, request, options);
    } catch (error) {
      if (!(error instanceof TranslationError)) throw error;
      const protocol = PROTOCOL_NAME[adaptationFor(provider, options.operation, route.model.upstreamModel)?.operation ?? options.operation];
      refusal ??= new GatewayError(400, 'untranslatable_request', `The model "${route.model.id}" is served by ${article(protocol)} ${protocol} upstream. ${error.message}`, { param: error.field });
      continue;
    }
    if (!prepared) {
      refusal ??= notServable(route, options.operation);
      continue;
    }
    const policy = routingOf(provider);
    for (let attempt = 0; attempt <= policy.retries; attempt += 1) {
      if (attempt > 0) {
        const started = performance.now();
        await abort.wait(backoffMs(attempt));
        timing.upstreamMs += performance.now() - started;
      }
      attempts += 1;
      const relayOptions: RelayOptions = {
        providerName: provider.name,
        credentialSource: provider.credentialSource,
        stripUsageChunk: options.stripUsageChunk ?? false,
        abort,
        translator: prepared.translator,
        framing: options.streamFraming ?? 'sse',
        timing,
        attempts,
        openStreams: deps.metrics?.openStreams,
      };
      health.begin(provider.name);
      // Counting tokens generates nothing: only generation is billed however it ends.
      if (options.operation !== 'count_tokens' && options.operation !== 'gemini_count_tokens') request.gateway.reachedProvider = true;
      const started = performance.now();
      let response: ProviderResponse | undefined;
      try {
        response = await provider.send({
          operation: prepared.operation,
          upstreamModel: route.model.upstreamModel,
          body: prepared.body,
          json: prepared.json,
          stream: options.stream,
          // Protocol headers and the query (e.g. ?beta=true) belong to the client's protocol.
          query: prepared.translator ? '' : query,
          headers: prepared.translator ? {} : headers,
          signal: abort,
        });
        timing.upstreamMs += performance.now() - started;
        // Nothing has reached the client until the answer is settled (JSON read, first stream chunk).
        if (response.status < 400) response = await settleAnswer(response, provider.name, abort, timing);
      } catch (error) {
        if (response === undefined) timing.upstreamMs += performance.now() - started;
        if (abort.aborted || !(error instanceof UpstreamError)) {
          health.release(provider.name);
          throw error;
        }
        health.failure(provider.name, policy);
        lastError = error;
        lastAnswer = undefined;
        // A provider that did not answer in time is not asked again for this request.
        if (error.failure === 'timeout') break;
        continue;
      }
      // A 401 is the provider refusing the gateway's own key: another provider may still serve.
      const providerFault = response.status === 401;
      if (!isRetryableStatus(response.status) && !providerFault) {
        health.success(provider.name);
        return relayResponse(request, reply, response, relayOptions);
      }
      // 429/5xx before any byte went to the client: keep the answer in case nobody does better.
      health.failure(provider.name, policy);
      try {
        const bytes = await readUpstreamBody(response.body, provider.name, abort, timing);
        lastAnswer = { response: { status: response.status, headers: response.headers, bytes }, options: relayOptions };
        lastError = undefined;
      } catch (error) {
        if (!(error instanceof UpstreamError)) throw error;
        lastError = error;
        lastAnswer = undefined;
      }
      if (!retrySameProvider(response.status, response.headers)) break;
    }
  }
  if (lastAnswer) return sendUpstreamError(request, reply, lastAnswer.response, { ...lastAnswer.options, attempts });
  if (lastError) {
    noteUpstream(request.gateway, lastError.providerName, attempts);
    reply.header('x-gateway-provider', lastError.providerName);
    reply.header('x-gateway-attempts', String(attempts));
    reply.header('x-gateway-overhead-ms', Math.max(0, reply.elapsedTime - timing.upstreamMs).toFixed(2));
    throw lastError;
  }
  throw refusal ?? notServable(candidates[0]!, options.operation);
}
