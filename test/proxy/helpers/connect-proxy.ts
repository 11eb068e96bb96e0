import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface ConnectProxy {
  url: string;
  /** Authorities (host:port) asked for with CONNECT, in order. */
  tunnels: string[];
  proxyAuthorization: Array<string | undefined>;
  close(): Promise<void>;
}

/** A minimal corporate-style forward proxy that only does CONNECT, on loopback. */
export async function startConnectProxy(): Promise<ConnectProxy> {
  const tunnels: string[] = [];
  const proxyAuthorization: Array<string | undefined> = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer((_req, res) => {
    res.writeHead(405);
    res.end('CONNECT only');
  });
  server.on('connect', (req, client: net.Socket, head) => {
    tunnels.push(req.url ?? '');
    proxyAuthorization.push(req.headers['proxy-authorization']);
    const [host, port] = (req.url ?? '').split(':');
    const target = net.connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) target.write(head);
      target.pipe(client);
      client.pipe(target);
    });
    for (const s of [client, target]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        target.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    tunnels,
    proxyAuthorization,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
