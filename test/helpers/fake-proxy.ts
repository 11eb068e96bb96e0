// A stand-in for the local cache proxy on 127.0.0.1 (port 0): GET /health answers healthy, degraded
// (503 with failed extensions) or foreign (200 but not {"status":"ok"}); the mode can change while it
// runs. `unusedPort()` gives an address where nothing listens (a proxy that is down).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeProxyMode = 'ok' | 'degraded' | 'foreign';

export class FakeProxy {
  mode: FakeProxyMode;
  healthRequests = 0;
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

/** A loopback port that was free a moment ago and has nothing listening on it. */
export async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
