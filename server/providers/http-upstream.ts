// A pooled keep-alive connection to one upstream origin, shared by the HTTP provider types.
// undici is required when the first upstream is made, not when the gateway loads: a gateway on the
// embedded default (the demo provider) never loads it, which keeps its idle memory down.
import { createRequire } from 'node:module';
import type { Pool } from 'undici';
import type { RequestAbort } from '../relay/request-abort.ts';
import { UpstreamError, type ProviderResponse } from './provider.ts';

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'te', 'trailer', 'content-length']);

export interface HttpUpstreamOptions {
  providerName: string;
  baseUrl: string;
  timeoutMs: number;
  /** Connections kept at most; undefined: one per request in flight (an HTTP/1.1 stream holds its connection throughout). */
  connections?: number;
}

type Undici = typeof import('undici');
let undiciModule: Undici | undefined;
const undici = (): Undici => (undiciModule ??= createRequire(import.meta.url)('undici') as Undici);

export class HttpUpstream {
  private readonly pool: Pool;
  private readonly basePath: string;
  readonly origin: string;

  constructor(private readonly options: HttpUpstreamOptions) {
    const url = new URL(options.baseUrl);
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.pool = new (undici().Pool)(this.origin, {
      // A cap would queue the 65th long stream behind the others until one ends.
      connections: options.connections ?? null,
      keepAliveTimeout: 30_000,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      connectTimeout: Math.min(options.timeoutMs, 10_000),
    });
  }

  post(path: string, body: Buffer, headers: Record<string, string>, signal: RequestAbort): Promise<ProviderResponse> {
    return this.request('POST', path, body, headers, signal);
  }

  /** A request without a body (GET, DELETE) sends none. `headers` is the caller's own object: the transport headers are added to it. */
  async request(method: 'GET' | 'POST' | 'DELETE', path: string, body: Buffer, headers: Record<string, string>, signal: RequestAbort): Promise<ProviderResponse> {
    const withBody = method === 'POST';
    try {
      const response = await this.pool.request({
        method,
        path: this.basePath + path,
        body: withBody ? body : undefined,
        headers: Object.assign(headers, withBody ? { 'content-length': String(body.length), 'accept-encoding': 'identity' } : { 'accept-encoding': 'identity' }),
        signal,
      });
      const outHeaders: Record<string, string> = {};
      const received = response.headers;
      for (const name in received) {
        const value = received[name];
        if (value === undefined || HOP_BY_HOP.has(name)) continue;
        outHeaders[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      return { status: response.statusCode, headers: outHeaders, body: response.body };
    } catch (error) {
      throw this.describe(error);
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private describe(error: unknown): unknown {
    const undiciErrors = undici().errors;
    if (error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError) {
      return new UpstreamError('timeout', this.options.providerName, `no answer within ${this.options.timeoutMs} ms`);
    }
    if (error instanceof undiciErrors.ConnectTimeoutError) {
      return new UpstreamError('timeout', this.options.providerName, 'connecting timed out');
    }
    if ((error as Error)?.name === 'AbortError') return error;
    const code = (error as { code?: string })?.code ?? (error as Error)?.message ?? 'unknown error';
    return new UpstreamError('unreachable', this.options.providerName, `connection failed (${code})`);
  }
}
