// How the benchmark's helper servers run: on 127.0.0.1, port 0, printing {"port": N} once they
// listen; stopping on SIGTERM/SIGINT, or when the benchmark that holds their stdin goes away (so
// they never outlive it, even if it dies by SIGKILL).
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** `beforeExit` releases what the server holds besides its sockets (a pool, a ticker); bounded to 500 ms. */
export function serveChild(server: Server, beforeExit?: () => unknown): void {
  server.keepAliveTimeout = 60_000;
  const stop = () => {
    server.close();
    server.closeAllConnections();
    void Promise.resolve(beforeExit?.()).finally(() => process.exit(0));
    setTimeout(() => process.exit(0), 500).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.stdin.on('end', stop).on('close', stop).resume();
  server.listen(0, '127.0.0.1', () => {
    process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
  });
}
