// What the request log keeps for the support desk beyond usage: where a request went, what refused
// it, and, for a key value no key matched, its masked hint and fingerprint. The facts are noted on
// the request's state where they arise (a refusal, an upstream's answer) and copied into the log
// entry at the end. Refused requests with no key owner are logged too, with user and key ''.
import { hashApiKey } from '../auth/api-key-values.ts';
import { maskKey } from '../../core/redact.ts';
import type { ApiReply, ApiRequest } from '../api-exchange.ts';
import type { GatewayError } from '../errors/gateway-error.ts';
import type { GatewayDeps } from '../gateway-deps.ts';
import type { GatewayRequestState } from '../gateway-request.ts';
import { fingerprintOfHash } from '../store/deleted-keys-repo.ts';
import type { RequestLogEntry } from './request-log.ts';
import { clientSessionId } from './client-session.ts';

/** Upstream headers that carry the provider's own request id, in the order they are believed. */
const UPSTREAM_ID_HEADERS = ['request-id', 'x-request-id', 'x-amzn-requestid', 'apim-request-id'];

/** The gateway's own refusal: its code and message (the message never holds a key: keys are masked). */
export function noteRefusal(state: GatewayRequestState, error: GatewayError): void {
  const support = (state.support ??= {});
  support.errorCode = error.code;
  support.errorMessage = error.message.length > 500 ? `${error.message.slice(0, 499)}…` : error.message;
  if (error.options.subject) {
    support.userId = error.options.subject.userId;
    support.keyId = error.options.subject.keyId;
  }
}

/** The provider that answered (or failed), after how many attempts, with its status and request id. */
export function noteUpstream(state: GatewayRequestState, provider: string, attempts: number, status?: number, headers?: Record<string, string>): void {
  const support = (state.support ??= {});
  support.provider = provider;
  support.attempts = attempts;
  if (status !== undefined) support.upstreamStatus = status;
  if (headers) {
    for (const name of UPSTREAM_ID_HEADERS) {
      const id = headers[name];
      if (id) {
        support.upstreamRequestId = id.slice(0, 200);
        break;
      }
    }
  }
}

/** A key value no key matched: kept as its hint and the first digits of its SHA-256, never the value. */
export function noteRefusedKey(state: GatewayRequestState, value: string): void {
  if (!value) return;
  const support = (state.support ??= {});
  support.keyHint = maskKey(value);
  support.keyFingerprint = fingerprintOfHash(hashApiKey(value));
}

const pathOf = (url: string): string => {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  return path.length > 300 ? path.slice(0, 300) : path;
};

/** The support fields of a log entry (usage fields are the caller's). */
type SupportFields = Pick<
  RequestLogEntry,
  'requestId' | 'method' | 'path' | 'protocol' | 'errorCode' | 'errorMessage' | 'keyHint' | 'keyFingerprint' | 'provider' | 'upstreamStatus' | 'upstreamRequestId' | 'attempts'
>;

/** Sets the support fields on a log entry the caller built (no object in between: it runs per request). */
export function addSupportFields<Entry extends SupportFields>(entry: Entry, request: ApiRequest, state: GatewayRequestState): Entry {
  const s = state.support;
  entry.requestId = request.id;
  entry.method = request.raw.method;
  entry.path = pathOf(request.url);
  entry.protocol = state.surface;
  if (s !== undefined) {
    entry.errorCode = s.errorCode;
    entry.errorMessage = s.errorMessage;
    entry.keyHint = s.keyHint;
    entry.keyFingerprint = s.keyFingerprint;
    entry.provider = s.provider;
    entry.upstreamStatus = s.upstreamStatus;
    entry.upstreamRequestId = s.upstreamRequestId;
    entry.attempts = s.attempts;
  }
  return entry;
}

/** Addresses on the API listeners that are not the model API: health, metrics, the operator API. */
const NOT_MODEL_API = /^\/(health|metrics|admin)(\/|$|\?)/;

/**
 * A request the gateway answered without a key owner (no key, an unknown or malformed one, a wrong
 * path, a disabled owner): one request-log row, so support can look its id up. Web pages and the
 * operator API are not logged here.
 */
export function logUnownedRequest(deps: GatewayDeps, request: ApiRequest, reply: ApiReply): void {
  const state = request.gateway;
  if (!deps.requestLog || !state || state.auth || state.unownedLogged) return;
  const url = request.url;
  if (NOT_MODEL_API.test(url)) return;
  // A model-API address, or an answer in the API's error envelope (wrong paths such as /messages).
  if (!url.startsWith('/v1') && state.support?.errorCode === undefined) return;
  state.unownedLogged = true;
  const entry: RequestLogEntry = {
    at: Date.now(),
    userId: state.support?.userId ?? '',
    keyId: state.support?.keyId ?? '',
    model: state.model ?? '(none)',
    status: state.outcomeStatus ?? reply.statusCode,
    inputTokens: 0,
    outputTokens: 0,
    latencyMs: reply.elapsedTime,
    sessionId: clientSessionId(request.headers),
    outcome: state.outcome,
  };
  deps.requestLog.push(addSupportFields(entry, request, state));
}
