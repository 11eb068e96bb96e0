import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream';
import { randomUUID } from 'node:crypto';
import type { ProxyConfig } from '../config/proxy-config.ts';
import type { DebugLog } from '../debug/debug-log.ts';
import { redactHeaders } from '../debug/redact-headers.ts';
import { redactPath } from '../debug/redact-url.ts';
import { errorMessage } from '../errors.ts';
import type { ExtensionRegistry } from '../transforms/registry.ts';
import type { HeaderMap, LocalReply, RequestMeta, RouteName } from '../transforms/types.ts';
import { runRequestHooks, runResponseHooks, runResponseStartHooks, streamHooksFor } from '../transforms/pipeline.ts';
import { sessionIdOf } from '../transforms/shared/session-id.ts';
import { isObject } from '../util/json-value.ts';
import { clientResponseHeaders, upstreamRequestHeaders } from './hop-headers.ts';
import { sendJson } from './json-reply.ts';
import { collectUpTo, type Collected } from './collect-body.ts';
import { BodyTooLargeError, readBody } from './read-body.ts';
import { relaySse } from './sse-relay.ts';
import type { UpstreamClient, UpstreamResponse } from './upstream-client.ts';
import { UpstreamTimeoutError } from './upstream-errors.ts';
import { upstreamTarget } from './upstream-target.ts';

// Above the API's own request limit; only a runaway client reaches it.
const MAX_REQUEST_BYTES = 64 * 1024 * 1024;

export interface ExchangeDeps {
  config: ProxyConfig;
  registry: ExtensionRegistry;
  upstream: UpstreamClient;
  debug: DebugLog;
  warn(line: string): void;
}

function sendLocalReply(res: ServerResponse, reply: LocalReply): void {
  const status = reply.status ?? 400;
  const headers = reply.headers ?? { 'content-type': 'application/json' };
  const body = reply.body === undefined ? { error: 'blocked_by_extension' } : reply.body;
  const bytes = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  res.writeHead(status, { ...headers, 'content-length': bytes.length });
  res.end(bytes);
}

/**
 * One client request: read it, run the extension chain, forward it, and relay the answer.
 * Failures before the answer starts become 502/504 JSON; after that the client connection is
 * closed, which is the only honest signal left once a status line has been sent.
 */
export async function proxyExchange(req: IncomingMessage, res: ServerResponse, route: RouteName, deps: ExchangeDeps): Promise<void> {
  const { config, debug, warn } = deps;
  const chain = deps.registry.forRoute(route);
  const started = Date.now();
  let raw: Buffer;
  try {
    raw = await readBody(req, MAX_REQUEST_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLargeError) sendJson(res, 413, { error: 'request_too_large', message: error.message });
    else debug.write('client_aborted', { phase: 'request_body', error: errorMessage(error) });
    return;
  }

  const target = upstreamTarget(config.upstream, req.url ?? '/');
  let body: unknown = null;
  if (raw.length > 0 && chain.length > 0) {
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      // Forwarded byte for byte; body-reading extensions see null and leave it alone.
      body = null;
    }
  }
  const meta: RequestMeta = {
    route,
    requestId: randomUUID(),
    sessionId: sessionIdOf(req.headers, body),
    upstreamHost: target.host,
    requestedModel: isObject(body) && typeof body.model === 'string' ? body.model : null,
    session: {},
    extra: {},
  };
  const headers: HeaderMap = { ...req.headers };
  let changed = false;
  const ctx = { body, headers, meta, markChanged: () => { changed = true; } };
  const reply = await runRequestHooks(chain, ctx, warn);
  if (reply) {
    debug.write('local_reply', { requestId: meta.requestId, route, status: reply.status ?? 400 });
    sendLocalReply(res, reply);
    return;
  }
  const outBody = changed && ctx.body !== null && ctx.body !== undefined ? Buffer.from(JSON.stringify(ctx.body)) : raw;
  const outHeaders = upstreamRequestHeaders(ctx.headers, req.headers, target.host, outBody.length);
  debug.write('request', {
    requestId: meta.requestId,
    method: req.method,
    path: redactPath(req.url),
    upstream: target.origin,
    headers: redactHeaders(outHeaders),
    bytesIn: raw.length,
    bytesOut: outBody.length,
    bodyRewritten: outBody !== raw,
    sessionId: meta.sessionId,
  });

  // A client that goes away cancels the upstream call, so nothing is generated (or billed) for nobody.
  const abort = new AbortController();
  let exchange: UpstreamResponse | undefined;
  res.once('close', () => {
    if (res.writableFinished) return;
    abort.abort();
    exchange?.request.destroy();
    debug.write('client_aborted', { requestId: meta.requestId, phase: exchange ? 'response' : 'upstream_connect' });
  });

  try {
    exchange = await deps.upstream.send({ method: req.method ?? 'POST', target, headers: outHeaders, body: outBody, signal: abort.signal });
  } catch (error) {
    if (abort.signal.aborted) return;
    const timeout = error instanceof UpstreamTimeoutError;
    debug.write('upstream_error', { requestId: meta.requestId, error: errorMessage(error), timeout });
    if (!res.headersSent) {
      sendJson(res, timeout ? 504 : 502, { error: timeout ? 'upstream_timeout' : 'upstream_error', message: errorMessage(error) });
    }
    return;
  }
  if (abort.signal.aborted) {
    exchange.request.destroy();
    return;
  }

  const { request, response } = exchange;
  const status = response.statusCode ?? 502;
  const upstreamHeaders = response.headers as HeaderMap;
  debug.write('response', { requestId: meta.requestId, status, headers: redactHeaders(upstreamHeaders), ms: Date.now() - started });
  await runResponseStartHooks(chain, status, upstreamHeaders, meta, warn);
  const outHeadersToClient = clientResponseHeaders(upstreamHeaders);
  const failMidway = (error: unknown): void => {
    debug.write('upstream_error', { requestId: meta.requestId, phase: 'response_body', error: errorMessage(error) });
    res.destroy();
  };
  request.on('error', failMidway);

  const contentType = String(upstreamHeaders['content-type'] ?? '');
  const streamHooks = contentType.includes('text/event-stream') ? streamHooksFor(chain, status, upstreamHeaders, meta, warn) : null;
  if (streamHooks) {
    // Observers leave the bytes as they are, so the upstream length stays true; rewritten lines do not.
    if (streamHooks.rewrites) delete outHeadersToClient['content-length'];
    res.writeHead(status, outHeadersToClient);
    try {
      const stats = await relaySse(response, res, streamHooks, config.maxEventBytes);
      if (stats.cut) {
        request.destroy();
        warn(`[proxy] ${route}: an upstream event grew past ${config.maxEventBytes} bytes (CACHE_FIX_PROXY_MAX_EVENT_BYTES); the stream was closed with an error event`);
      }
      debug.write('stream_end', { requestId: meta.requestId, bytes: stats.bytesIn, parsedEvents: stats.events, cut: stats.cut, ms: Date.now() - started });
    } catch (error) {
      failMidway(error);
    }
    return;
  }

  if (!chain.some((ext) => ext.onResponse)) {
    res.writeHead(status, outHeadersToClient);
    pipeline(response, res, (error) => {
      if (error && !abort.signal.aborted) failMidway(error);
      else debug.write('response_end', { requestId: meta.requestId, ms: Date.now() - started });
    });
    return;
  }

  let collected: Collected;
  try {
    collected = await collectUpTo(response, config.maxCollectBytes);
  } catch (error) {
    if (!res.headersSent) sendJson(res, 502, { error: 'upstream_error', message: errorMessage(error) });
    return;
  }
  if (!collected.complete) {
    // Too large to hold: passed through untouched, without the hooks that need the whole answer.
    debug.write('response_passthrough', { requestId: meta.requestId, reason: 'larger_than_collect_limit', limit: config.maxCollectBytes });
    res.writeHead(status, outHeadersToClient);
    for (const chunk of collected.head) res.write(chunk);
    pipeline(response, res, (error) => {
      if (error && !abort.signal.aborted) failMidway(error);
      else debug.write('response_end', { requestId: meta.requestId, ms: Date.now() - started });
    });
    return;
  }
  const payload = collected.body;
  let parsed: unknown = null;
  try {
    parsed = payload.length > 0 ? JSON.parse(payload.toString('utf8')) : null;
  } catch {
    parsed = null;
  }
  let responseChanged = false;
  const responseCtx = { status, headers: upstreamHeaders, body: parsed, meta, markChanged: () => { responseChanged = true; } };
  await runResponseHooks(chain, responseCtx, warn);
  const finalBody =
    responseChanged && responseCtx.body !== null && responseCtx.body !== undefined ? Buffer.from(JSON.stringify(responseCtx.body)) : payload;
  // 4.2.1 kept the upstream length after re-serialising and clients hung; it always matches here.
  outHeadersToClient['content-length'] = String(finalBody.length);
  res.writeHead(status, outHeadersToClient);
  res.end(finalBody);
}
