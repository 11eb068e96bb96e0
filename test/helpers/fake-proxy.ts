// A stand-in for the local cache proxy on 127.0.0.1 (port 0): GET /health answers healthy, degraded
// (503 with failed extensions) or foreign (200 but not {"status":"ok"}); the mode can change while it
// runs. POST /v1/messages answers `messagesReply` when a test sets one (e.g. what the vendor says to
// a key of this service when the proxy's upstream is left at its default), or is forwarded to
// `forwardTo` as the real proxy forwards it (502 when nothing answers there), else 404.
// `unusedPort()` gives an address where nothing listens (a proxy that is down).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeProxyMode = 'ok' | 'degraded' | 'foreign';

export class FakeProxy {
  mode: FakeProxyMode;
  healthRequests = 0;
  messagesReply: { status: number; headers?: Record<string, string>; body: unknown } | null = null;
  /** The upstream root POST /v1/messages is forwarded to. */
  forwardTo: string | null = null;
  messagesRequests = 0;
  private constructor(
    private readonly server: Server,
    readonly url: string,
    mode: FakeProxyMode,
  ) {
    this.mode = mode;
  }

  static async start(mode: FakeProxyMode = 'ok'): Promise<FakeProxy> {
    let proxy: FakeProxy | undefined;
    const server = createServer((req, res) => {
      if (req.method === 'GET' && req.url === '/health') {
        proxy!.healthRequests++;
        const [status, body] =
          proxy!.mode === 'ok'
            ? [200, { status: 'ok' }]
            : proxy!.mode === 'degraded'
              ? [503, { status: 'degraded', failed_extensions: [{ file: 'sort-stabilization.mjs', error: 'SyntaxError', lastAttempt: '2026-01-01T00:00:00Z' }], hint: 'restart the proxy' }]
              : [200, { hello: 'world' }];
        const text = JSON.stringify(body);
        res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
        res.end(text);
        return;
      }
      const reply = proxy!.messagesReply;
      const forwardTo = proxy!.forwardTo;
      if (req.method === 'POST' && req.url?.startsWith('/v1/messages') && (reply || forwardTo)) {
        proxy!.messagesRequests++;
        if (reply) {
          req.resume();
          res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
          res.end(JSON.stringify(reply.body));
          return;
        }
        void forward(req, res, `${forwardTo}${req.url}`);
        return;
      }
      req.resume();
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":"not_found"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    proxy = new FakeProxy(server, `http://127.0.0.1:${port}`, mode);
    return proxy;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const PASSED = ['authorization', 'x-api-key', 'content-type', 'anthropic-version', 'anthropic-beta'];

/** Relays one request as the cache proxy would: headers that matter, the body, the answer back. */
async function forward(req: IncomingMessage, res: ServerResponse, url: string): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const headers: Record<string, string> = {};
  for (const name of PASSED) if (typeof req.headers[name] === 'string') headers[name] = req.headers[name] as string;
  try {
    const answer = await fetch(url, { method: 'POST', headers, body: Buffer.concat(chunks) });
    const out: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (name !== 'content-length' && name !== 'transfer-encoding' && name !== 'connection' && name !== 'content-encoding') out[name] = value;
    });
    const body = Buffer.from(await answer.arrayBuffer());
    res.writeHead(answer.status, out);
    res.end(body);
  } catch (error) {
    res.writeHead(502, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ type: 'error', error: { type: 'proxy_error', message: `upstream ${url} did not answer: ${(error as Error).cause ?? error}` } }));
  }
}

/** A loopback port that was free a moment ago and has nothing listening on it. */
export async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
