// GET and DELETE /v1/responses/{id}: a stored response, at the upstream that keeps it. An id names
// no model, so every provider that keeps responses (a Responses upstream, the demo) is asked in
// turn until one knows the id; a 404 from one means "ask the next". Answers made through
// translation are stored nowhere (their response object says store: false). The answer is relayed
// as the upstream's bytes; reading a response again generates nothing, so no tokens are counted.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError } from '../errors/gateway-error.ts';
import type { GatewayDeps } from '../gateway-deps.ts';
import { authenticateWith } from '../plugins/api-hooks.ts';
import { UpstreamError, type Provider } from '../providers/provider.ts';
import { readUpstreamBody, sendUpstreamError, type RelayOptions } from '../relay/relay-response.ts';
import { relayUpstreamHeaders } from '../relay/upstream-headers.ts';
import { RequestAbort } from '../relay/request-abort.ts';

const ID = /^[A-Za-z0-9_.:-]{1,256}$/;
const EMPTY = Buffer.alloc(0);

function notFound(id: string, keepers: Provider[]): GatewayError {
  const where = keepers.length ? `at the upstreams that keep responses (${keepers.map((p) => p.name).join(', ')})` : 'here: no upstream of this gateway keeps responses';
  return new GatewayError(
    404,
    'response_not_found',
    `No response with id '${id}' ${where}. Responses made through translation (models on chat-completions or messages upstreams) are not stored; send the conversation in \`input\` instead.`,
    { param: 'response_id' },
  );
}

async function lookup(deps: GatewayDeps, request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply, method: 'GET' | 'DELETE'): Promise<FastifyReply> {
  const id = request.params.id;
  if (!ID.test(id)) throw new GatewayError(400, 'invalid_request', `The response id '${id.slice(0, 80)}' is not valid: ids are letters, digits and _ . : -.`, { param: 'response_id' });
  const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
  if (/[?&]stream=true(&|$)/.test(query)) {
    throw new GatewayError(400, 'invalid_request', 'Streaming a stored response again is not available through the gateway; retrieve it without stream=true.', { param: 'stream' });
  }
  const keepers = deps.router.providers.filter((p) => p.supports('response_lookup'));
  const abort = new RequestAbort();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) abort.abort();
  });
  const timing = { upstreamMs: 0 };
  const beta = request.headers['openai-beta'];
  const headers: Record<string, string> = typeof beta === 'string' ? { 'openai-beta': beta } : {};
  let lastError: UpstreamError | undefined;
  let attempts = 0;
  for (const provider of keepers) {
    attempts += 1;
    const started = performance.now();
    let response;
    try {
      response = await provider.send({ operation: 'response_lookup', method, subpath: `/${id}`, upstreamModel: '', body: EMPTY, json: {}, stream: false, query, headers, signal: abort });
    } catch (error) {
      if (!(error instanceof UpstreamError) || abort.aborted) throw error;
      lastError = error;
      continue;
    } finally {
      timing.upstreamMs += performance.now() - started;
    }
    const bytes = await readUpstreamBody(response.body, provider.name, abort, timing);
    if (response.status === 404) continue;
    const options: RelayOptions = { providerName: provider.name, stripUsageChunk: false, abort, timing, attempts };
    if (response.status >= 400) return sendUpstreamError(request, reply, { status: response.status, headers: response.headers, bytes }, options);
    reply.header('x-gateway-provider', provider.name);
    reply.header('x-gateway-attempts', String(attempts));
    relayUpstreamHeaders(reply, 'openai', response.headers, true);
    return reply.code(response.status).type(response.headers['content-type'] ?? 'application/json').send(bytes);
  }
  if (lastError) throw lastError;
  throw notFound(id, keepers);
}

export function registerResponsesRetrieve(app: FastifyInstance, deps: GatewayDeps): void {
  const onRequest = authenticateWith(deps, { allowXApiKey: false });
  app.get<{ Params: { id: string } }>('/v1/responses/:id', { onRequest }, (request, reply) => lookup(deps, request, reply, 'GET'));
  app.delete<{ Params: { id: string } }>('/v1/responses/:id', { onRequest }, (request, reply) => lookup(deps, request, reply, 'DELETE'));
}
