// RequestAbort stands in for an AbortController per request: undici takes it as a request's
// signal (EventEmitter form), waits end early with the abort's reason, listeners run once.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { Pool } from 'undici';
import { RequestAbort } from '../../../server/relay/request-abort.ts';

test('listeners run once on abort, removed ones never; a second abort changes nothing', () => {
  const abort = new RequestAbort();
  const calls: string[] = [];
  const removed = () => calls.push('removed');
  abort.once('abort', () => calls.push('a'));
  abort.on('abort', removed);
  abort.removeListener('abort', removed);
  abort.abort();
  abort.abort();
  assert.deepEqual(calls, ['a']);
  assert.equal(abort.aborted, true);
  assert.equal(abort.reason?.name, 'AbortError');
  // A listener added after the abort is not kept (undici checks `aborted` first).
  abort.on('abort', () => calls.push('late'));
  abort.abort();
  assert.deepEqual(calls, ['a']);
});

test('wait resolves after its time, or rejects with the reason as soon as the request is aborted', async () => {
  await new RequestAbort().wait(5);
  const abort = new RequestAbort();
  const started = Date.now();
  const waiting = abort.wait(60_000);
  setImmediate(() => abort.abort());
  await assert.rejects(waiting, (error: Error) => error.name === 'AbortError');
  assert.ok(Date.now() - started < 30_000);
  await assert.rejects(abort.wait(1), (error: Error) => error.name === 'AbortError');
});

test('undici takes it as a signal: an upstream request in flight is aborted', async () => {
  let reached!: () => void;
  const arrived = new Promise<void>((resolve) => (reached = resolve));
  const server = createServer(() => reached()); // never answers
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const pool = new Pool(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  try {
    const abort = new RequestAbort();
    const pending = pool.request({ method: 'GET', path: '/', signal: abort as never });
    await arrived;
    abort.abort();
    await assert.rejects(pending, (error: Error) => error.name === 'AbortError');
  } finally {
    await pool.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
