/** Distinguished from other upstream failures because it is answered 504, not 502. */
export class UpstreamTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`upstream did not respond within ${timeoutMs} ms (CACHE_FIX_PROXY_TIMEOUT)`);
    this.name = 'UpstreamTimeoutError';
  }
}

export class TunnelError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TunnelError';
  }
}
