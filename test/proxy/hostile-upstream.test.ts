// An upstream that misbehaves on purpose must never take the proxy down: every session of the user
// goes through it. The proxy runs as its own process here, so a crash or a runaway heap shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { startFakeUpstream, type Responder } from './helpers/fake-upstream.ts';
import { SOURCE_BIN, startServerProcess } from './helpers/run-cli.ts';
import { tempDir } from './helpers/temp-dir.ts';
import { waitFor } from './helpers/wait-for.ts';

const MiB = 1024 * 1024;
/** Most an upstream writes in one answer here: far past every bound, bounded so the test ends. */
const HOSTILE_BYTES = 320 * MiB;

function memoryKiB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  assert.ok(match, `${field} of ${pid}`);
  return Number(match[1]);
}

/** Writes `piece` until `total` bytes are out or the proxy hangs up, honouring backpressure. */
async function writeUntilClosed(res: http.ServerResponse, piece: Buffer, total: number): Promise<number> {
  let sent = 0;
  while (sent < total && !res.destroyed) {
    sent += piece.length;
    if (!res.write(piece)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.once('drain', done);
        res.once('close', done);
      });
    }
  }
  if (!res.destroyed) res.end();
  return sent;
}

interface Reply {
  status: number;
  bytes: number;
  tail: string;
  ended: boolean;
}

/** Sends one request through the proxy and reads the answer, keeping only its size and its end. */
function send(port: number, method: string, path: string, readAtMost = Infinity, timeoutMs = 60_000): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, agent: false, headers: { 'content-type': 'application/json', 'x-api-key': 'sk-test' } }, (res) => {
      let bytes = 0;
      let tail = '';
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        tail = (tail + chunk.toString('latin1')).slice(-4096);
        if (bytes >= readAtMost) {
          res.destroy();
          resolve({ status: res.statusCode ?? 0, bytes, tail, ended: false });
        }
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, tail, ended: true }));
      res.on('error', () => resolve({ status: res.statusCode ?? 0, bytes, tail, ended: false }));
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer to ${method} ${path} within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(method === 'POST' ? JSON.stringify({ model: 'claude-opus-4-8', stream: true, max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }) : undefined);
  });
}

test('a hostile upstream (no event boundary, endless body, huge headers) leaves the proxy alive, serving, and its memory bounded', async (t) => {
  const upstreamSent: Record<string, number> = {};
  const behaviours: Record<string, Responder> = {
    // One event that never ends: no blank line ever comes.
    '/v1/messages': async (req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"type":"text_delta","text":"');
      upstreamSent[req.url] = await writeUntilClosed(res, Buffer.alloc(MiB, 'x'), HOSTILE_BYTES);
    },
    // A non-SSE answer that does not stop, on the route whose hooks read answers whole.
    '/api/claude_cli/bootstrap': async (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"padding":"');
      upstreamSent[req.url] = await writeUntilClosed(res, Buffer.alloc(MiB, 'y'), HOSTILE_BYTES);
    },
    '/v1/messages/count_tokens': (_req, res) => {
      // A megabyte of headers: far past what any HTTP client reads.
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      for (let i = 0; i < 64; i += 1) headers[`x-padding-${i}`] = 'z'.repeat(16 * 1024);
      res.writeHead(200, headers);
      res.end('{"input_tokens":1}');
    },
    '/v1/messages?ok=1': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"type":"message","content":[{"type":"text","text":"still here"}]}');
    },
  };
  const upstream = await startFakeUpstream((req, res) => behaviours[req.url]!(req, res));
  t.after(() => upstream.close());
  const home = tempDir(t, 'cfp-hostile-');
  const proxy = await startServerProcess(process.execPath, ['--import', 'tsx', SOURCE_BIN, 'server'], {
    PATH: process.env.PATH ?? '',
    HOME: home,
    CACHE_FIX_PROXY_PORT: '0',
    CACHE_FIX_PROXY_UPSTREAM: upstream.url,
  });
  t.after(() => proxy.stop());
  const pid = proxy.child.pid!;
  // Warm up so the baseline includes the code the hostile requests run.
  assert.equal((await send(proxy.port, 'POST', '/v1/messages?ok=1')).status, 200);
  const baseline = memoryKiB(pid, 'VmRSS');

  const stream = await send(proxy.port, 'POST', '/v1/messages');
  assert.equal(stream.status, 200);
  assert.ok(stream.ended, 'the proxy ends the stream itself');
  assert.match(stream.tail, /event: error\ndata: \{"type":"error","error":\{"type":"api_error","message":"cache-fix-proxy: an upstream event grew past 16777216 bytes/);
  assert.ok(stream.bytes < 64 * MiB, `the client got ${stream.bytes} bytes`);
  await waitFor(() => upstreamSent['/v1/messages'] !== undefined, 'the upstream to see its stream closed', 30_000);
  assert.ok(upstreamSent['/v1/messages']! < HOSTILE_BYTES, 'the proxy hung up on the upstream');

  const body = await send(proxy.port, 'GET', '/api/claude_cli/bootstrap', 96 * MiB);
  assert.equal(body.status, 200);
  assert.ok(body.bytes >= 96 * MiB, 'past the collect bound the answer passes through');
  await waitFor(() => upstreamSent['/api/claude_cli/bootstrap'] !== undefined, 'the upstream to see the endless answer cut', 30_000);
  assert.ok(upstreamSent['/api/claude_cli/bootstrap']! < HOSTILE_BYTES, 'the client leaving cut the upstream');

  const headers = await send(proxy.port, 'POST', '/v1/messages/count_tokens');
  assert.equal(headers.status, 502);

  assert.equal(proxy.child.exitCode, null, `the proxy is still running\n${proxy.stderr()}`);
  const next = await send(proxy.port, 'POST', '/v1/messages?ok=1');
  assert.equal(next.status, 200);
  assert.match(next.tail, /still here/);
  const health = await fetch(`http://127.0.0.1:${proxy.port}/health`);
  assert.equal(health.status, 200);
  const grownMiB = (memoryKiB(pid, 'VmHWM') - baseline) / 1024;
  t.diagnostic(`proxy peak RSS grew ${grownMiB.toFixed(0)} MiB over ${(baseline / 1024).toFixed(0)} MiB; upstream sent ${JSON.stringify(upstreamSent)} bytes`);
  assert.ok(grownMiB < 160, `peak memory grew by ${grownMiB.toFixed(0)} MiB over ${HOSTILE_BYTES / MiB} MiB of hostile answers`);
  assert.match(proxy.stderr(), /grew past 16777216 bytes \(CACHE_FIX_PROXY_MAX_EVENT_BYTES\)/);
});
