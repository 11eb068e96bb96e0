// A real HTTP server on 127.0.0.1 (port 0) that plays an upstream provider of either protocol.
// Each test scripts its answer (JSON, SSE chunks with pauses or gates, error statuses, a hang,
// a connection cut mid-stream) and reads back what arrived: method, path with query, headers,
// raw body bytes, and whether the caller gave up before the answer was complete.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { waitFor } from './wait-for.ts';

export type ExchangeEnd = 'completed' | 'aborted-by-client' | 'destroyed-by-upstream';

export interface RecordedRequest {
  method: string;
  /** Path including the query string, exactly as requested. */
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  json<T = any>(): T;
  /** Undefined while the exchange is open. */
  end?: ExchangeEnd;
  /** Resolves when the exchange is over, and how it ended. */
  ended: Promise<ExchangeEnd>;
}

export type Step =
  | { write: string | Buffer }
  | { delayMs: number }
  /** Pause until the promise settles (see Gate). */
  | { until: Promise<unknown> }
  /** Cut the connection without finishing the response (an upstream failure mid-stream). */
  | { destroy: true }
  /** Never finish; the exchange stays open until the caller gives up or the server closes. */
  | { hang: true };

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** Played in order; the response ends after the last step unless a step cut or hung it. */
  steps: Step[];
}

export type Handler = (request: RecordedRequest) => Reply | Promise<Reply>;

export function jsonReply(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return { status, headers: { 'content-type': 'application/json', ...headers }, steps: [{ write: text }] };
}

export function rawReply(status: number, body: string | Buffer, contentType = 'text/plain'): Reply {
  return { status, headers: { 'content-type': contentType }, steps: [{ write: body }] };
}

export interface SseOptions {
  /** Pause before every chunk after the first. */
  delayMs?: number;
  /** What happens after the last chunk: end normally (default), cut the connection, or hang. */
  then?: 'end' | 'destroy' | 'hang';
  headers?: Record<string, string>;
}

export function sseReply(chunks: Array<string | Buffer | Step>, options: SseOptions = {}): Reply {
  const steps: Step[] = [];
  chunks.forEach((chunk, i) => {
    if (i > 0 && options.delayMs) steps.push({ delayMs: options.delayMs });
    steps.push(typeof chunk === 'string' || Buffer.isBuffer(chunk) ? { write: chunk } : chunk);
  });
  if (options.then === 'destroy') steps.push({ destroy: true });
  if (options.then === 'hang') steps.push({ hang: true });
  return { status: 200, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...options.headers }, steps };
}

/** A promise the test opens when it is ready (e.g. let a stream continue after SIGTERM). */
export class Gate {
  readonly promise: Promise<void>;
  open!: () => void;
  constructor() {
    this.promise = new Promise((resolve) => {
      this.open = resolve;
    });
  }
}

/**
 * Resolves once the chunk has been handed to the socket. Waiting for the callback matters: node
 * corks response writes until the next tick, so a `destroy` step right after a write would
 * otherwise discard data that, for the test, was already sent.
 */
function write(res: ServerResponse, chunk: string | Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    if (res.destroyed) return reject(new Error('response destroyed'));
    res.write(chunk, (error) => (error ? reject(error) : resolve()));
  });
}

export class FakeUpstream {
  readonly requests: RecordedRequest[] = [];
  private handler: Handler | undefined;
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<FakeUpstream> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const port = (server.address() as AddressInfo).port;
    const fake = new FakeUpstream(server, `http://127.0.0.1:${port}`);
    server.on('connection', (socket) => {
      fake.sockets.add(socket);
      socket.on('close', () => fake.sockets.delete(socket));
    });
    server.on('request', (req, res) => void fake.serve(req, res).catch(() => res.destroy()));
    return fake;
  }

  /** Sets how the next requests are answered (until replaced). */
  handle(handler: Handler): void {
    this.handler = handler;
  }

  reset(): void {
    this.handler = undefined;
    this.requests.length = 0;
  }

  last(): RecordedRequest {
    const request = this.requests.at(-1);
    if (!request) throw new Error('the fake upstream received no request');
    return request;
  }

  /** Waits until `count` requests have arrived and returns the last of them. */
  async waitForRequests(count = 1): Promise<RecordedRequest> {
    await waitFor(() => this.requests.length >= count, { what: `${count} request(s) at the fake upstream` });
    return this.requests[count - 1]!;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let settle!: (end: ExchangeEnd) => void;
    const record: RecordedRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      body: Buffer.concat(chunks),
      json() {
        return JSON.parse(this.body.toString('utf8'));
      },
      ended: new Promise((resolve) => {
        settle = resolve;
      }),
    };
    const finish = (end: ExchangeEnd) => {
      if (record.end) return;
      record.end = end;
      settle(end);
    };
    this.requests.push(record);
    let destroyedByUs = false;
    res.on('close', () => finish(res.writableFinished ? 'completed' : destroyedByUs ? 'destroyed-by-upstream' : 'aborted-by-client'));

    let reply: Reply;
    try {
      reply = this.handler
        ? await this.handler(record)
        : jsonReply(500, { error: { message: `fake upstream: no answer scripted for ${record.method} ${record.path}`, type: 'test_error' } });
    } catch (error) {
      reply = jsonReply(500, { error: { message: `fake upstream handler failed: ${(error as Error).message}`, type: 'test_error' } });
    }
    res.writeHead(reply.status ?? 200, reply.headers ?? {});
    res.flushHeaders();
    try {
      for (const step of reply.steps) {
        if ('write' in step) await write(res, step.write);
        else if ('delayMs' in step) await sleep(step.delayMs);
        else if ('until' in step) await step.until;
        else if ('destroy' in step) {
          destroyedByUs = true;
          res.destroy();
          return;
        } else if ('hang' in step) return;
        if (res.destroyed) return;
      }
      res.end();
    } catch {
      // The caller went away while we were writing; 'close' records it.
    }
  }
}

/** A loopback port with nothing listening on it (connection refused). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
