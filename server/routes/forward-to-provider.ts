// The shared path of every generation route: resolve the model, check the provider speaks the
// route's protocol, send the body (unchanged unless a field must change) and relay the answer.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError } from '../errors/gateway-error.ts';
import type { GatewayDeps } from '../gateway-deps.ts';
import type { Operation } from '../providers/provider.ts';
import { relayResponse } from '../relay/relay-response.ts';

const FORWARDED_HEADERS = ['anthropic-version', 'anthropic-beta', 'openai-beta'];

const ENDPOINT_OF: Record<Operation, string> = {
  chat: '/v1/chat/completions',
  messages: '/v1/messages',
  count_tokens: '/v1/messages/count_tokens',
  images: '/v1/images/generations',
};

export interface ForwardOptions {
  operation: Operation;
  kind: 'text' | 'image';
  modelName: string;
  stream: boolean;
  /** Fields the gateway must set on the upstream request (the client's bytes are kept otherwise). */
  overrides?: Record<string, unknown>;
  stripUsageChunk?: boolean;
}

export async function forwardToProvider(deps: GatewayDeps, request: FastifyRequest, reply: FastifyReply, options: ForwardOptions): Promise<FastifyReply> {
  const route = deps.router.resolve(options.modelName);
  if (!route || route.model.kind !== options.kind) {
    const listUrl = options.kind === 'image' ? deps.settings.publicImageUrl : deps.settings.publicUrl;
    throw new GatewayError(
      404,
      'model_not_found',
      `The model "${options.modelName}" does not exist or is not available to this key. GET ${listUrl}/v1/models lists the models you can use.`,
      { param: 'model' },
    );
  }
  request.gateway.model = route.model.id;
  if (!route.provider.supports(options.operation)) {
    const other = (['chat', 'messages'] as const).find((op) => route.provider.supports(op));
    throw new GatewayError(
      400,
      'protocol_not_supported',
      `The model "${route.model.id}" is served by a ${route.provider.type} upstream that does not speak ${ENDPOINT_OF[options.operation]}, and this gateway does not translate between protocols yet.` +
        (other ? ` Call it through ${deps.settings.publicUrl}${ENDPOINT_OF[other]} instead.` : ''),
      { param: 'model' },
    );
  }

  const json = request.body as Record<string, unknown>;
  const overrides: Record<string, unknown> = { ...options.overrides };
  if (route.model.upstreamModel !== route.model.id) overrides.model = route.model.upstreamModel;
  const changed = Object.keys(overrides).length > 0;
  const upstreamJson = changed ? { ...json, ...overrides } : json;
  const body = changed ? Buffer.from(JSON.stringify(upstreamJson)) : request.rawBody!;

  const headers: Record<string, string> = {};
  for (const name of FORWARDED_HEADERS) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }

  const abort = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) abort.abort();
  });
  const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
  const response = await route.provider.send({
    operation: options.operation,
    upstreamModel: route.model.upstreamModel,
    body,
    json: upstreamJson,
    stream: options.stream,
    query,
    headers,
    signal: abort.signal,
  });
  return relayResponse(request, reply, response, { providerName: route.provider.name, stripUsageChunk: options.stripUsageChunk ?? false, abort });
}
