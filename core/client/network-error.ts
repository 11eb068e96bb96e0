// Sorts a thrown network error into the kinds the diagnosis distinguishes (DNS, refused, TLS, …).
import type { NetworkFailure, NetworkFailureKind } from './http-get.ts';

const BY_CODE: Record<string, NetworkFailureKind> = {
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  EAI_NONAME: 'dns',
  ECONNREFUSED: 'refused',
  EHOSTUNREACH: 'refused',
  ENETUNREACH: 'refused',
  EADDRNOTAVAIL: 'refused',
  UND_ERR_CONNECT_TIMEOUT: 'connect-timeout',
  ETIMEDOUT: 'connect-timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  ECONNRESET: 'reset',
  EPIPE: 'reset',
  UND_ERR_SOCKET: 'reset',
  UND_ERR_CLOSED: 'reset',
  EPROTO: 'tls',
  UND_ERR_INVALID_ARG: 'invalid',
  ERR_INVALID_URL: 'invalid',
};

const TLS_CODE = /^(ERR_SSL_|ERR_TLS_|CERT_|DEPTH_ZERO_|SELF_SIGNED_|UNABLE_TO_(VERIFY|GET)_|HOSTNAME_MISMATCH)/;

function codeOf(error: unknown): string | undefined {
  for (let current = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; current && depth < 5; depth++) {
    if (typeof current.code === 'string' && current.code !== '') return current.code;
    current = current.cause as typeof current;
  }
  return undefined;
}

export function classifyNetworkError(error: unknown): NetworkFailure {
  const code = codeOf(error) ?? ((error as Error)?.name === 'TimeoutError' || (error as Error)?.name === 'AbortError' ? 'TIMEOUT' : 'UNKNOWN');
  const kind: NetworkFailureKind = BY_CODE[code] ?? (TLS_CODE.test(code) ? 'tls' : code === 'TIMEOUT' ? 'timeout' : 'other');
  const message = String((error as Error)?.message ?? error).split('\n', 1)[0]!.slice(0, 200);
  return { kind, code, message };
}
