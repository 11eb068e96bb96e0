// An upstream error answer in the client's envelope. The status is kept; the message and the
// upstream's own error type are carried over from either protocol's envelope, so a client sees
// the provider's reason in the shape its SDK parses.
import { errorBodyFor, isErrorEnvelope, type ApiSurface } from '../../../core/protocol/error-bodies.ts';
import { asString, isRecord } from './json-values.ts';

export interface UpstreamErrorInfo {
  message: string;
  /** The upstream's error type or code, e.g. rate_limit_error, overloaded_error, context_length_exceeded. */
  kind?: string;
  param?: string;
}

/** Reads message and kind from a body in either protocol's error envelope. */
export function readUpstreamError(body: unknown): UpstreamErrorInfo | undefined {
  if (!isRecord(body) || !isRecord(body.error)) return undefined;
  const error = body.error;
  const message = asString(error.message);
  if (message === undefined) return undefined;
  // Gemini names its kind in `status` (RESOURCE_EXHAUSTED); its `code` is the HTTP status.
  const kind = body.type === 'error' ? asString(error.type) : (asString(error.code) ?? asString(error.status) ?? asString(error.type));
  return { message, kind, param: asString(error.param) };
}

/**
 * The body to send for an upstream error status, or undefined when the upstream's bytes already
 * are the client's envelope (same protocol) and can be sent unchanged.
 */
export function clientErrorBody(surface: ApiSurface, status: number, body: unknown, fallbackMessage: string, requestId: string): unknown | undefined {
  if (isErrorEnvelope(surface, body)) return undefined;
  const info = readUpstreamError(body) ?? { message: fallbackMessage };
  return errorBodyFor(surface, status, info.message, { requestId, code: info.kind ?? 'upstream_error', param: info.param ?? null });
}

