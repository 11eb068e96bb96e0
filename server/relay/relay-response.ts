// Sends a provider's answer to the client: error statuses in the route's envelope, JSON as the
// upstream's bytes (or translated into the client's protocol), and streams chunk by chunk with
// backpressure (or event by event through a translation) while usage is read on the side.
import type { ApiReply, ApiRequest } from '../api-exchange.ts';
import { GatewayError } from '../errors/gateway-error.ts';
import { UpstreamError, type ProviderResponse } from '../providers/provider.ts';
import { clientErrorBody } from '../protocols/shared/error-translation.ts';
import { isRecord, parseJsonText } from '../protocols/shared/json-values.ts';
import { TranslationError } from '../protocols/shared/translation-error.ts';
import type { Translator } from '../protocols/translation.ts';
import { usageFromJson } from '../usage/usage-extractor.ts';
import { readBody } from './read-body.ts';
import type { RequestAbort } from './request-abort.ts';
import { passThroughSteps } from './passthrough-stream.ts';
import { translatedSteps } from './translated-stream.ts';
import { noteUpstream } from '../usage/request-log-support.ts';
import { relayUpstreamHeaders } from './upstream-headers.ts';
import { jsonArraySteps } from './json-array-stream.ts';
import { writeStream } from './write-stream.ts';

const MAX_BUFFERED_BODY = 64 * 1024 * 1024;

/** Milliseconds spent waiting on upstreams (sending, waiting for headers, reading bodies, backing off). */
export interface UpstreamTiming {
  upstreamMs: number;
}

export interface RelayOptions {
  providerName: string;
  /** Where that provider's credential comes from (`$NAME`), for the operator's remedy. */
  credentialSource?: string;
  /** Drop the usage-only chunk the gateway asked for on the client's behalf. */
  stripUsageChunk: boolean;
  abort: RequestAbort;
  /** Set when the provider speaks the other protocol. */
  translator?: Translator;
  /** How a stream reaches the client (a Gemini client without alt=sse reads a JSON array). */
  framing?: 'sse' | 'json-array';
  timing: UpstreamTiming;
  /** Upstream calls made for this request, retries and fallbacks included. */
  attempts: number;
  /** Streams being relayed now (metrics), counted until the response closes. */
  openStreams?: { inc(): void; dec(): void };
}

export interface BufferedResponse {
  status: number;
  headers: Record<string, string>;
  bytes: Buffer;
}

/** Reads a whole upstream body; a failure while reading is an upstream failure (502/504), not a gateway bug. */
export async function readUpstreamBody(body: AsyncIterable<Uint8Array>, providerName: string, abort: RequestAbort, timing: UpstreamTiming): Promise<Buffer> {
  const started = performance.now();
  try {
    return await readBody(body, MAX_BUFFERED_BODY);
  } catch (error) {
    if (abort.aborted) throw error;
    const timedOut = (error as { code?: string }).code === 'UND_ERR_BODY_TIMEOUT';
    throw new UpstreamError(timedOut ? 'timeout' : 'unreachable', providerName, `reading the answer failed: ${(error as Error).message}`);
  } finally {
    timing.upstreamMs += performance.now() - started;
  }
}

function markServed(request: ApiRequest, reply: ApiReply, status: number, upstreamHeaders: Record<string, string>, options: RelayOptions): void {
  noteUpstream(request.gateway, options.providerName, options.attempts, status, upstreamHeaders);
  reply.header('x-gateway-provider', options.providerName);
  request.gateway.provider = options.providerName;
  reply.header('x-gateway-attempts', String(options.attempts));
  relayUpstreamHeaders(reply, request.gateway.surface, upstreamHeaders, !options.translator);
}

/** The gateway's own milliseconds so far: time since the request arrived, minus time spent on upstreams. */
function stampOverhead(reply: ApiReply, timing: UpstreamTiming): void {
  reply.header('x-gateway-overhead-ms', Math.max(0, reply.elapsedTime - timing.upstreamMs).toFixed(2));
}

/** An upstream error status, in the client's envelope (the upstream's bytes when they already are). */
export function sendUpstreamError<Reply extends ApiReply>(request: ApiRequest, reply: Reply, response: BufferedResponse, options: RelayOptions): Reply {
  markServed(request, reply, response.status, response.headers, options);
  // The provider refusing the gateway's own credentials is a gateway fault, not the caller's key.
  if (response.status === 401) {
    throw new GatewayError(
      502,
      'upstream_auth_failed',
      `The upstream provider "${options.providerName}" refused the gateway's credentials (401). Your key is fine; the gateway operator must fix that provider's key${options.credentialSource ? ` (${options.credentialSource})` : ''}.`,
    );
  }
  const parsed = parseJsonText(response.bytes.toString('utf8'));
  const snippet = response.bytes.toString('utf8').replace(/\s+/g, ' ').slice(0, 200);
  const fallback = `The upstream provider "${options.providerName}" answered ${response.status}${snippet ? `: ${snippet}` : ''}`;
  const body = clientErrorBody(request.gateway.surface, response.status, parsed, fallback, request.id);
  stampOverhead(reply, options.timing);
  reply.code(response.status).type('application/json').send(body === undefined ? response.bytes : body);
  return reply;
}

function untranslatable(providerName: string, error: TranslationError): GatewayError {
  return new GatewayError(502, 'untranslatable_answer', `The upstream provider "${providerName}" answered something the client's protocol cannot carry. ${error.message}`);
}

export async function relayResponse(request: ApiRequest, reply: ApiReply, response: ProviderResponse, options: RelayOptions): Promise<ApiReply> {
  const state = request.gateway;
  const surface = state.surface;
  const contentType = response.headers['content-type'] ?? 'application/json';

  if (response.status >= 400) {
    const bytes = response.bytes ?? await readUpstreamBody(response.body, options.providerName, options.abort, options.timing);
    return sendUpstreamError(request, reply, { status: response.status, headers: response.headers, bytes }, options);
  }
  markServed(request, reply, response.status, response.headers, options);

  if (!contentType.includes('text/event-stream')) {
    const bytes = response.bytes ?? (await readUpstreamBody(response.body, options.providerName, options.abort, options.timing));
    if (!options.translator) {
      const usage = usageFromJson(surface, parseJsonText(bytes.toString('utf8')));
      state.inputTokens = usage.inputTokens;
      state.outputTokens = usage.outputTokens;
      state.usageClasses = usage.usageClasses;
      stampOverhead(reply, options.timing);
      return reply.code(response.status).type(contentType).send(bytes);
    }
    const parsed = parseJsonText(bytes.toString('utf8'));
    if (!isRecord(parsed)) throw new GatewayError(502, 'upstream_bad_answer', `The upstream provider "${options.providerName}" answered ${response.status} with a body that is not a JSON object.`);
    let translated: unknown;
    try {
      translated = options.translator.response(parsed, { created: Math.floor(Date.now() / 1000) });
    } catch (error) {
      if (error instanceof TranslationError) throw untranslatable(options.providerName, error);
      throw error;
    }
    const usage = usageFromJson(options.translator.upstreamSurface, parsed);
    state.inputTokens = usage.inputTokens;
    state.outputTokens = usage.outputTokens;
    state.usageClasses = usage.usageClasses;
    stampOverhead(reply, options.timing);
    return reply.code(response.status).type('application/json').send(JSON.stringify(translated));
  }

  stampOverhead(reply, options.timing);
  const eventSteps = options.translator ? translatedSteps(surface, state, { ...options, translator: options.translator }) : passThroughSteps(surface, state, options);
  const arrayed = options.framing === 'json-array';
  const steps = arrayed ? jsonArraySteps(eventSteps) : eventSteps;
  const type = arrayed ? 'application/json; charset=utf-8' : options.translator ? 'text/event-stream; charset=utf-8' : contentType;
  const openStreams = options.openStreams;
  if (openStreams) {
    openStreams.inc();
    reply.raw.once('close', () => openStreams.dec());
  }
  return writeStream(reply, response.status, { 'content-type': type, 'cache-control': 'no-cache', 'x-accel-buffering': 'no' }, response.body, options.abort, steps, state.beforeAnswerEnds);
}
