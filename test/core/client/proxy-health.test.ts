// The proxy's /health probe on a busy machine: a timeout is asked again before the proxy is called
// down, a late answer is "slow" (still ok), and a refused connection is down at once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { HttpGet, HttpOutcome } from '../../../core/client/http-get.ts';
import { HEALTH_TIMEOUT_MS, probeProxyHealth } from '../../../core/client/proxy-client.ts';

const OK: HttpOutcome = { kind: 'response', status: 200, headers: {}, body: '{"status":"ok"}' };
const TIMEOUT: HttpOutcome = { kind: 'error', failure: { kind: 'timeout', code: 'UND_ERR_HEADERS_TIMEOUT', message: 'timeout' } };
const REFUSED: HttpOutcome = { kind: 'error', failure: { kind: 'refused', code: 'ECONNREFUSED', message: 'refused' } };

function scripted(answers: HttpOutcome[], clock: { t: number }, step = 0) {
  const timeouts: number[] = [];
  const http: HttpGet = async ({ timeoutMs }) => {
    timeouts.push(timeoutMs);
    clock.t += step;
    return answers.shift()!;
  };
  return { http, timeouts };
}

test('the default bound is generous, and a timed-out first attempt is asked again: ok, but slow', async () => {
  const clock = { t: 0 };
  const { http, timeouts } = scripted([TIMEOUT, OK], clock, 100);
  const health = await probeProxyHealth(http, 'http://127.0.0.1:9801', undefined, { now: () => clock.t });
  assert.deepEqual(timeouts, [HEALTH_TIMEOUT_MS, HEALTH_TIMEOUT_MS]);
  assert.ok(HEALTH_TIMEOUT_MS >= 5000);
  assert.deepEqual([health.state, health.slow], ['ok', true]);
  assert.match(health.observed, /200 \{"status":"ok"\} \(slow: answered after 200 ms, attempt 2\)/);
});

test('a late answer on the first attempt is slow, a prompt one is not', async () => {
  const clock = { t: 0 };
  const late = await probeProxyHealth(scripted([OK], clock, 2_000).http, 'http://127.0.0.1:9801', undefined, { now: () => clock.t });
  assert.deepEqual([late.state, late.slow], ['ok', true]);
  const prompt = await probeProxyHealth(scripted([OK], clock, 10).http, 'http://127.0.0.1:9801', undefined, { now: () => clock.t });
  assert.deepEqual([prompt.state, prompt.slow], ['ok', undefined]);
  assert.equal(prompt.observed, 'GET http://127.0.0.1:9801/health → 200 {"status":"ok"}');
});

test('down: refused at once (not asked again), or no answer to any attempt', async () => {
  const clock = { t: 0 };
  const refused = scripted([REFUSED, OK], clock);
  const health = await probeProxyHealth(refused.http, 'http://127.0.0.1:9801');
  assert.deepEqual([health.state, refused.timeouts.length], ['down', 1]);
  const silent = await probeProxyHealth(scripted([TIMEOUT, TIMEOUT], clock).http, 'http://127.0.0.1:9801', 3000);
  assert.equal(silent.state, 'down');
  assert.match(silent.observed, /no answer within 3000 ms \(2 attempts\)/);
});
