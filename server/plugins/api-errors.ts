// Turns every failure on an API listener into the error envelope of the route's surface,
// with a request id, and counts it in the key's usage.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiReply, ApiRequest } from '../api-exchange.ts';
import { errorBodyFor } from '../../core/protocol/error-bodies.ts';
import { GatewayError } from '../errors/gateway-error.ts';
import { UpstreamError } from '../providers/provider.ts';
import type { GatewaySettings } from '../gateway-deps.ts';
import { surfaceOf } from '../gateway-request.ts';
import { isDatabaseUnavailable } from '../store/database-errors.ts';
import { noteRefusal } from '../usage/request-log-support.ts';

/**
 * Failures no retry can fix: a wrong, deleted or malformed key, a disabled account, a provider
 * refusing the gateway's own credential. `x-should-retry: false` makes clients stop at once and show
 * the message instead of retrying silently with back-off.
 */
function isPermanent(error: GatewayError): boolean {
  return error.status === 401 || error.status === 403 || error.code === 'upstream_auth_failed';
}

export function sendApiError<Reply extends ApiReply>(request: ApiRequest, reply: Reply, error: GatewayError): Reply {
  const surface = request.gateway?.surface ?? 'openai';
  if (request.gateway) noteRefusal(request.gateway, error);
  for (const [name, value] of Object.entries(error.options.headers ?? {})) reply.header(name, value);
  if (isPermanent(error)) reply.header('x-should-retry', 'false');
  reply.code(error.status).type('application/json');
  const retryAfter = Number(error.options.headers?.['retry-after']);
  reply.send(
    errorBodyFor(surface, error.status, error.message, {
      requestId: request.id,
      code: error.code,
      param: error.options.param ?? null,
      retryAfterSeconds: Number.isFinite(retryAfter) ? retryAfter : undefined,
    }),
  );
  return reply;
}

/**
 * fastify's router failures that never reach a hook (a URL that does not decode, a path parameter
 * over the length limit): answered in the shape of the route the URL names.
 */
export function sendFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  request.gateway ??= { surface: surfaceOf(request.raw.url ?? '/', request.headers['anthropic-version']), inputTokens: 0, outputTokens: 0, usageRecorded: false };
  reply.header('x-request-id', request.id);
  const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
  return sendApiError(
    request,
    reply,
    tooLong
      ? new GatewayError(414, 'uri_too_long', 'A part of the URL path is longer than the server accepts. Check the address the client uses.')
      : new GatewayError(400, 'malformed_url', 'The URL path is not valid percent-encoding. Check the address the client uses (e.g. /v1/chat/completions).'),
  );
}

function fieldOf(error: FastifyError): string | null {
  const first = error.validation?.[0];
  if (!first) return null;
  const path = first.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const { missingProperty, additionalProperty } = first.params as { missingProperty?: string; additionalProperty?: string };
  return [path, missingProperty ?? additionalProperty].filter(Boolean).join('.') || null;
}

const PARTS: Record<string, string> = { body: 'request body', querystring: 'query string', params: 'URL path', headers: 'request headers' };

/** A failure of the gateway itself, in words that tell the client what to do. */
export function internalError(): GatewayError {
  return new GatewayError(500, 'internal_error', 'The gateway hit an internal error. Retry; if it persists, report the request id to the operator.');
}

/** Maps fastify's own and unexpected errors to a GatewayError with a message that says what to do. */
export function toGatewayError(error: FastifyError | Error, settings: GatewaySettings): GatewayError {
  if (error instanceof GatewayError) return error;
  if (error instanceof UpstreamError) {
    const status = error.failure === 'timeout' ? 504 : 502;
    const what = error.failure === 'timeout' ? 'did not answer in time' : 'could not be reached';
    return new GatewayError(
      status,
      error.failure === 'timeout' ? 'upstream_timeout' : 'upstream_unreachable',
      `The upstream provider "${error.providerName}" ${what} (${error.message}). Retry later; if it persists, the gateway operator should check that provider.`,
    );
  }
  if (isDatabaseUnavailable(error)) {
    return new GatewayError(503, 'database_unavailable', 'The gateway cannot reach its database right now. Retry in a moment; the operator has been told by the logs.', {
      headers: { 'retry-after': '1' },
    });
  }
  const fe = error as FastifyError;
  if (fe.validation) {
    const field = fieldOf(fe);
    const first = fe.validation[0];
    const part = PARTS[fe.validationContext ?? 'body'] ?? 'request';
    // An unknown property is named, not only "must NOT have additional properties".
    const detail = first?.keyword === 'additionalProperties' ? 'is not a known property; remove it or check its spelling' : (first?.message ?? 'is invalid');
    return new GatewayError(400, 'invalid_request', `Invalid ${part}: ${field ? `\`${field}\` ${detail}` : detail}.`, { param: field });
  }
  switch (fe.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new GatewayError(413, 'request_too_large', `The request body is larger than the limit of ${settings.bodyLimitBytes} bytes. Send a smaller request.`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new GatewayError(415, 'unsupported_media_type', 'Send the request body as JSON with `Content-Type: application/json`.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new GatewayError(400, 'invalid_json', 'The request body is empty; send a JSON object.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new GatewayError(400, 'invalid_request', 'The Content-Length header does not match the body.');
  }
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
    return new GatewayError(fe.statusCode, 'invalid_request', fe.message);
  }
  return internalError();
}

/** Any failure of an API request, answered in the route's envelope; failures of the gateway itself are logged. */
export function answerApiError<Reply extends ApiReply>(settings: GatewaySettings, error: Error, request: ApiRequest, reply: Reply): Reply {
  const gatewayError = toGatewayError(error, settings);
  // A client that left mid-request aborts its upstream call: that is no failure of the gateway.
  const clientLeft = request.gateway?.abort?.aborted === true || reply.raw.destroyed;
  if (gatewayError.status >= 500 && !(error instanceof UpstreamError) && !clientLeft) {
    if (gatewayError.code === 'database_unavailable') request.log.warn({ err: { message: error.message, code: (error as { code?: string }).code } }, 'database unavailable');
    else request.log.error({ err: error }, 'request failed');
  }
  return sendApiError(request, reply, gatewayError);
}

export function registerApiErrorHandling(
  app: FastifyInstance,
  settings: GatewaySettings,
  notFound: (request: FastifyRequest) => GatewayError,
  /** An HTML page for unknown addresses a browser asks for (the text listener's web pages); undefined: the JSON error. */
  page?: (request: FastifyRequest) => Promise<string | undefined>,
): void {
  app.setErrorHandler((error: FastifyError, request, reply) => answerApiError(settings, error, request, reply));
  app.setNotFoundHandler(async (request, reply) => {
    const answer = page ? await page(request) : undefined;
    if (answer) return reply.code(404).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(answer);
    return sendApiError(request, reply, notFound(request));
  });
}
