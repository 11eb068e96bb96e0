// Memory stays bounded under a burst of large prompts: bodies held at once are capped by the
// in-flight budget (the rest get 503 in shape with Retry-After, and succeed when retried), and the
// gateway's peak resident memory is measured against a bound (a measurement, not a timing).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { GatewayProcess, isolateClientEnvironment } from '../helpers/gateway-process.ts';

const MiB = 1024 * 1024;
const BODY_LIMIT = 12 * MiB;
const INFLIGHT = 24 * MiB;

/** The process's peak resident set (VmHWM) in MiB, from /proc. */
function peakRssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmHWM:'))!;
  return Number(/(\d+)/.exec(line)![1]) / 1024;
}

describe('large request bodies', () => {
  let gateway: GatewayProcess;
  let key: string;
  let restoreEnv: () => void;

  before(async () => {
    restoreEnv = isolateClientEnvironment();
    gateway = await GatewayProcess.start({ bodyLimit: BODY_LIMIT, rateLimit: 0, extraArgs: ['--inflight-body-limit', String(INFLIGHT)] });
    key = (await gateway.createKey('admin', 'large')).key;
  });

  after(async () => {
    await gateway?.cleanup();
    restoreEnv?.();
  });

  const send = (body: string) =>
    fetch(`${gateway.textUrl}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body });

  test('a burst of 8 prompts of 10 MiB: each is answered or told to retry (503 in shape), and peak memory stays bounded', async () => {
    const before = peakRssMiB(gateway.pid);
    const prompt = (i: number) => JSON.stringify({ model: 'demo-chat', max_tokens: 8, messages: [{ role: 'user', content: `${i} ${'words and more words '.repeat(Math.floor((10 * MiB) / 21))}` }] });
    const answers = await Promise.all(Array.from({ length: 8 }, async (_, i) => {
      const response = await send(prompt(i));
      return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.json() };
    }));
    const statuses = answers.map((a) => a.status);
    assert.ok(statuses.every((s) => s === 200 || s === 503), statuses.join(','));
    assert.ok(statuses.includes(200), 'some are served');
    for (const busy of answers.filter((a) => a.status === 503)) {
      assert.equal(busy.retryAfter, '1');
      assert.equal(busy.body.error.code, 'busy_with_large_requests');
    }
    const peak = peakRssMiB(gateway.pid);
    // Measured here: with no budget the 8 prompts peaked at about 1 GiB; with it (about two admitted) near 420 MiB.
    assert.ok(peak < Math.max(before, 200) + 600, `peak RSS ${Math.round(peak)} MiB (before the burst ${Math.round(before)} MiB)`);
    const retried = await send(prompt(99));
    assert.equal(retried.status, 200, 'a retry after the burst is served');
    await retried.arrayBuffer();
  });

  test('a body over the limit is refused with 413 in shape, and the gateway is still alive', async () => {
    // The gateway answers from the declared length, before reading the body: only the head is sent,
    // so the answer can be read (a client still uploading when the server closes gets a reset that
    // may discard the answer: what made fetch fail here now and then).
    const length = BODY_LIMIT + 1_000;
    const port = Number(new URL(gateway.textUrl).port);
    const answer = await new Promise<string>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      let data = '';
      const done = () => {
        socket.destroy();
        resolve(data);
      };
      socket.on('data', (d) => {
        data += d.toString('utf8');
        const head = data.indexOf('\r\n\r\n');
        const declared = /content-length: (\d+)/i.exec(data);
        if (head >= 0 && declared && Buffer.byteLength(data.slice(head + 4)) >= Number(declared[1])) done();
      });
      socket.on('close', () => resolve(data));
      socket.on('error', () => undefined);
      socket.write(`POST /v1/chat/completions HTTP/1.1\r\nhost: gw\r\nauthorization: Bearer ${key}\r\ncontent-type: application/json\r\ncontent-length: ${length}\r\n\r\n{"model":"demo-chat"`);
    });
    assert.match(answer, /^HTTP\/1\.1 413 /, answer.slice(0, 200));
    assert.equal(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).error.code, 'request_too_large');
    const health = await fetch(`${gateway.textUrl}/health`);
    assert.equal(health.status, 200);
  });
});
