// Sends a provider's answer to the client: error statuses in the route's envelope, JSON as the
// upstream's bytes, and streams chunk by chunk with backpressure while usage is read on the side.
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isErrorEnvelope, messagesErrorBody, openAiErrorBody, type ApiSurface } from '../../core/protocol/error-bodies.ts';
import { SseParser } from '../../core/protocol/sse.ts';
import { GatewayError } from '../errors/gateway-error.ts';
import { UpstreamError, type ProviderResponse } from '../providers/provider.ts';
import { isUsageOnlyChunk, StreamUsage, usageFromJson } from '../usage/usage-extractor.ts';
import { readBody } from './read-body.ts';
import { streamErrorEvent } from './stream-error-event.ts';

const MAX_BUFFERED_BODY = 64 * 1024 * 1024;

export interface RelayOptions {
  providerName: string;
  /** Drop the usage-only chunk the gateway asked for on the client's behalf. */
  stripUsageChunk: boolean;
  abort: AbortController;
}

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** Reads a whole upstream body; a failure while reading is an upstream failure (502/504), not a gateway bug. */
async function readUpstreamBody(body: AsyncIterable<Uint8Array>, options: RelayOptions): Promise<Buffer> {
  try {
    return await readBody(body, MAX_BUFFERED_BODY);
  } catch (error) {
    if (options.abort.signal.aborted) throw error;
    const timedOut = (error as { code?: string }).code === 'UND_ERR_BODY_TIMEOUT';
    throw new UpstreamError(timedOut ? 'timeout' : 'unreachable', options.providerName, `reading the answer failed: ${(error as Error).message}`);
  }
}

export async function relayResponse(request: FastifyRequest, reply: FastifyReply, response: ProviderResponse, options: RelayOptions): Promise<FastifyReply> {
  const state = request.gateway;
  const surface = state.surface;
  reply.header('x-gateway-provider', options.providerName);
  const contentType = response.headers['content-type'] ?? 'application/json';

  if (response.status >= 400) {
    const bytes = await readUpstreamBody(response.body, options);
    const parsed = parseJson(bytes);
    // The provider refusing the gateway's own credentials is a gateway fault, not the caller's key.
    if (response.status === 401) {
      throw new GatewayError(
        502,
        'upstream_auth_failed',
        `The upstream provider "${options.providerName}" refused the gateway's credentials (401). Your key is fine; the gateway operator must fix that provider's key.`,
      );
    }
    const retryAfter = response.headers['retry-after'];
    if (retryAfter) reply.header('retry-after', retryAfter);
    reply.code(response.status);
    if (isErrorEnvelope(surface, parsed)) return reply.type('application/json').send(bytes);
    const snippet = bytes.toString('utf8').replace(/\s+/g, ' ').slice(0, 200);
    const message = `The upstream provider "${options.providerName}" answered ${response.status}${snippet ? `: ${snippet}` : ''}`;
    const body = surface === 'messages' ? messagesErrorBody(response.status, message, request.id) : openAiErrorBody(response.status, message, { code: 'upstream_error' });
    return reply.type('application/json').send(body);
  }

  if (!contentType.includes('text/event-stream')) {
    const bytes = await readUpstreamBody(response.body, options);
    const usage = usageFromJson(surface, parseJson(bytes));
    state.inputTokens = usage.inputTokens;
    state.outputTokens = usage.outputTokens;
    return reply.code(response.status).type(contentType).send(bytes);
  }

  reply.code(response.status).headers({ 'content-type': contentType, 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
  return reply.send(Readable.from(relayStream(surface, response.body, state, options), { objectMode: false }));
}

async function* relayStream(
  surface: ApiSurface,
  body: AsyncIterable<Uint8Array>,
  state: FastifyRequest['gateway'],
  options: RelayOptions,
): AsyncGenerator<Buffer> {
  const parser = new SseParser();
  const usage = new StreamUsage(surface);
  let finished = false;
  const observe = (data: string, event?: string) => {
    usage.observe(data);
    if (data === '[DONE]' || event === 'message_stop' || event === 'error') finished = true;
  };
  try {
    for await (const chunk of body) {
      const events = parser.push(chunk);
      if (!options.stripUsageChunk) {
        for (const e of events) observe(e.data, e.event);
        yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        continue;
      }
      for (const e of events) {
        observe(e.data, e.event);
        if (!isUsageOnlyChunk(e.data)) yield Buffer.from(e.raw);
      }
    }
    for (const e of parser.end()) {
      observe(e.data, e.event);
      if (options.stripUsageChunk && !isUsageOnlyChunk(e.data)) yield Buffer.from(e.raw);
    }
    if (!finished) {
      state.outcomeStatus = 502;
      yield Buffer.from(streamErrorEvent(surface, `The upstream provider "${options.providerName}" closed the stream before it was complete; the answer is cut off. Retry the request.`));
    }
  } catch (error) {
    if (options.abort.signal.aborted) return;
    state.outcomeStatus = 502;
    const reason = (error as Error)?.message ?? 'stream error';
    yield Buffer.from(streamErrorEvent(surface, `The upstream provider "${options.providerName}" failed during the stream (${reason}); the answer is incomplete. Retry the request.`));
  } finally {
    state.inputTokens = usage.inputTokens;
    state.outputTokens = usage.outputTokens;
  }
}
