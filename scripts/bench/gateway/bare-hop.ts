// The yardstick of the gateway benchmark: a bare Node pass-through, run as its own process.
// node:http server + an undici Pool (keep-alive, no cap on connections, as the gateway's upstream pool)
// relaying method, path, body and the response bytes to one upstream origin. No auth, no
// parsing, no validation, no usage: the practical limit of one hop in Node (DESIGN.md). Kept lean
// on purpose: no AbortController per request (a client leaving after the answer started destroys
// the upstream body) and .pipe() rather than stream.pipeline(), which builds and aborts an
// AbortController (with a DOMException) per call.
// Usage: bare-hop.ts <upstream origin>. Prints {"port": N} once it listens.
import { createServer } from 'node:http';
import { serveChild } from './serve-child.ts';
import { Pool } from 'undici';

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'te', 'trailer', 'content-length']);

function main(origin: string): void {
  // As many upstream connections as requests in flight, like the gateway (a stream holds one).
  const pool = new Pool(origin, { connections: null, keepAliveTimeout: 30_000 });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      pool
        .request({
          method: req.method as 'POST',
          path: req.url ?? '/',
          headers: { 'content-type': req.headers['content-type'] ?? 'application/json', 'content-length': String(body.length) },
          body,
        })
        .then((upstream) => {
          const headers: Record<string, string | string[]> = {};
          for (const [name, value] of Object.entries(upstream.headers)) {
            if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
          }
          res.writeHead(upstream.statusCode, headers);
          // A client that goes away stops the upstream body (and so the upstream request).
          res.on('close', () => {
            if (!res.writableFinished) upstream.body.destroy();
          });
          upstream.body.on('error', () => res.destroy()).pipe(res);
        })
        .catch(() => {
          if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
          res.end('{"error":{"message":"upstream failed","type":"bad_gateway","param":null,"code":null}}');
        });
    });
  });
  serveChild(server, () => pool.destroy());
}

const origin = process.argv[2];
if (!origin || !/^https?:\/\//.test(origin)) {
  process.stderr.write('usage: bare-hop.ts <upstream origin, e.g. http://127.0.0.1:PORT>\n');
  process.exit(2);
}
main(origin);
