// The one HTTP operation the engine needs (GET with headers and a deadline), as a plain function
// type so checks and operations can be given a fake in tests.

export interface HttpRequest {
  url: string;
  headers?: Record<string, string>;
  /** Bound for connecting and for the first byte of the answer. */
  timeoutMs: number;
}

export type NetworkFailureKind = 'dns' | 'refused' | 'connect-timeout' | 'timeout' | 'tls' | 'reset' | 'invalid' | 'other';

export interface NetworkFailure {
  kind: NetworkFailureKind;
  /** The system or library code (ENOTFOUND, ECONNREFUSED, ERR_SSL_…), for the observed text. */
  code: string;
  message: string;
}

export type HttpOutcome =
  | { kind: 'response'; status: number; headers: Record<string, string>; body: string }
  | { kind: 'error'; failure: NetworkFailure };

export type HttpGet = (request: HttpRequest) => Promise<HttpOutcome>;
