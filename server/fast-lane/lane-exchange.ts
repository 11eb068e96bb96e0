// The request and reply of the fast lane: what the shared route logic needs (api-exchange.ts), kept
// on node:http's own objects, answering as fastify's reply would (header names in lower case,
// content types and lengths set the same way) so a client cannot tell which path answered.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { ApiLog, ApiReply, ApiRequest } from '../api-exchange.ts';
import type { GatewayRequestState } from '../gateway-request.ts';

const SILENT: ApiLog = { info() {}, warn() {}, error() {} };

export class LaneRequest implements ApiRequest {
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly routeOptions: { readonly url: string };
  body: unknown = undefined;
  rawBody?: Buffer = undefined;
  gateway!: GatewayRequestState;
  private logger: ApiLog | undefined;

  constructor(
    readonly raw: IncomingMessage,
    readonly id: string,
    route: string,
    private readonly baseLogger: Logger | undefined,
  ) {
    this.url = raw.url!;
    this.headers = raw.headers;
    this.routeOptions = { url: route };
  }

  /** A child logger with the request id, made only when something is logged (as fastify's request.log). */
  get log(): ApiLog {
    this.logger ??= this.baseLogger ? this.baseLogger.child({ reqId: this.id }) : SILENT;
    return this.logger;
  }
}

export class LaneReply implements ApiReply {
  statusCode = 200;
  hijacked = false;
  /** Counts the request's usage, then runs `end` once its journal line is written. */
  beforeEnd: ((end: () => void) => void) | undefined = undefined;
  private readonly headers: Record<string, string> = {};

  constructor(
    readonly raw: ServerResponse,
    private readonly startedAt: number,
  ) {}

  get elapsedTime(): number {
    return performance.now() - this.startedAt;
  }

  get sent(): boolean {
    return this.hijacked || this.raw.headersSent;
  }

  header(name: string, value: string): this {
    this.headers[name.toLowerCase()] = value;
    return this;
  }

  getHeader(name: string): unknown {
    return this.headers[name.toLowerCase()];
  }

  getHeaders(): Record<string, string> {
    return { ...this.headers };
  }

  hasHeader(name: string): boolean {
    return this.headers[name.toLowerCase()] !== undefined;
  }

  /** As fastify's: a status outside 100-599 is refused (the failure is answered 500). */
  code(status: number): this {
    if (!Number.isInteger(status) || status < 100 || status > 599) throw new Error(`Called reply with an invalid status code: ${status}`);
    this.statusCode = status;
    return this;
  }

  type(contentType: string): this {
    this.headers['content-type'] = contentType;
    return this;
  }

  /**
   * As fastify: bytes keep their content type (octet-stream when none); a string or an object is
   * JSON unless another type was set, with `charset=utf-8` added to a JSON type that has none.
   */
  send(payload: unknown): this {
    if (this.sent) return this;
    const headers = this.headers;
    if (this.statusCode < 200 || this.statusCode === 204 || this.statusCode === 304) {
      // As fastify: these statuses carry no body, so neither a content type nor a length.
      delete headers['content-type'];
      delete headers['content-length'];
      // The head only takes effect with the end: nothing leaves before the usage is in the journal.
      this.raw.writeHead(this.statusCode, headers);
      this.endWith(undefined);
      return this;
    }
    let body: Buffer | string;
    if (Buffer.isBuffer(payload)) {
      headers['content-type'] ??= 'application/octet-stream';
      body = payload;
    } else {
      const type = headers['content-type'];
      if (type === undefined) headers['content-type'] = typeof payload === 'string' ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8';
      else if (type.includes('json') && !/;\s*charset=/i.test(type)) headers['content-type'] = `${type}; charset=utf-8`;
      body = typeof payload === 'string' ? payload : JSON.stringify(payload);
    }
    headers['content-length'] = String(Buffer.byteLength(body));
    this.raw.writeHead(this.statusCode, headers);
    this.endWith(body);
    return this;
  }

  private endWith(body: Buffer | string | undefined): void {
    const res = this.raw;
    const end = body === undefined ? () => res.end() : () => res.end(body);
    if (this.beforeEnd === undefined) end();
    else this.beforeEnd(end);
  }

  hijack(): void {
    this.hijacked = true;
  }
}
