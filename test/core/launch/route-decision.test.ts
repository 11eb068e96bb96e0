// The route with a faked health endpoint: healthy → proxy; degraded, down, foreign, not loopback or
// a Windows client under WSL → direct, with the reason.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { HttpGet, HttpOutcome } from '../../../core/client/http-get.ts';
import { executionPlane } from '../../../core/launch/execution-plane.ts';
import { decideRoute } from '../../../core/launch/route-decision.ts';
import { sameAddress } from '../../../core/launch/same-address.ts';

const service = { root: 'https://gw.example.com', hadV1: false, origin: 'file' };
const linux = executionPlane({}, '/usr/bin/claude', () => 'Linux version 6.1 (debian)');

function health(outcome: HttpOutcome): HttpGet & { calls: string[] } {
  const calls: string[] = [];
  const fake = (async ({ url }) => {
    calls.push(url);
    return outcome;
  }) as HttpGet & { calls: string[] };
  fake.calls = calls;
  return fake;
}
const ok = health({ kind: 'response', status: 200, headers: {}, body: '{"status":"ok"}' });
const input = (http: HttpGet, over = {}) => ({ proxyUrl: 'http://127.0.0.1:9801', service, auth: 'service' as const, plane: linux, http, timeoutMs: 500, ...over });

test('healthy proxy → proxy route at the proxy address', async () => {
  const route = await decideRoute(input(ok));
  assert.equal(route.kind, 'proxy');
  assert.equal(route.baseUrl, 'http://127.0.0.1:9801');
  assert.deepEqual(ok.calls, ['http://127.0.0.1:9801/health']);
});

test('degraded, down and foreign proxies → direct to {base_url}, saying why', async () => {
  const degraded = await decideRoute(input(health({ kind: 'response', status: 503, headers: {}, body: '{"status":"degraded","failed_extensions":[{"file":"x.mjs"}]}' })));
  assert.deepEqual([degraded.kind, degraded.baseUrl, degraded.proxy.state], ['direct', 'https://gw.example.com', 'degraded']);
  assert.match(degraded.reason, /degraded.*x\.mjs.*starting directly against https:\/\/gw\.example\.com/);
  const down = await decideRoute(input(health({ kind: 'error', failure: { kind: 'refused', code: 'ECONNREFUSED', message: '' } })));
  assert.deepEqual([down.kind, down.proxy.state], ['direct', 'down']);
  const foreign = await decideRoute(input(health({ kind: 'response', status: 200, headers: {}, body: '<html>' })));
  assert.deepEqual([foreign.kind, foreign.proxy.state], ['direct', 'foreign']);
  const timeout = await decideRoute(input(health({ kind: 'error', failure: { kind: 'timeout', code: 'UND_ERR_HEADERS_TIMEOUT', message: '' } })));
  assert.match(timeout.reason, /no answer within 500 ms/);
});

test('a vendor or subscription login goes direct to the client default (variable unset)', async () => {
  const down = health({ kind: 'error', failure: { kind: 'refused', code: 'ECONNREFUSED', message: '' } });
  const route = await decideRoute(input(down, { auth: 'vendor' }));
  assert.equal(route.baseUrl, null);
});

test('WSL with a Windows client refuses the proxy route without probing', async () => {
  const plane = executionPlane({ WSL_DISTRO_NAME: 'Ubuntu' }, '/mnt/c/Users/me/AppData/Roaming/npm/claude', () => '');
  assert.equal(plane.mismatch, true);
  const http = health({ kind: 'response', status: 200, headers: {}, body: '{"status":"ok"}' });
  const route = await decideRoute(input(http, { plane }));
  assert.equal(route.kind, 'direct');
  assert.match(route.reason, /must all run in the same WSL environment/);
  assert.deepEqual(http.calls, []);
  assert.equal(executionPlane({}, 'C:/x/claude.cmd', () => 'Linux version 5.15.90.1-microsoft-standard-WSL2').mismatch, true, '/proc/version tells WSL too');
  assert.equal(executionPlane({ WSL_DISTRO_NAME: 'Ubuntu' }, '/usr/local/bin/claude', () => '').mismatch, false);
});

test('trailing /v1 is removed with a warning; a non-loopback proxy is never used', async () => {
  const route = await decideRoute(input(ok, { service: { root: 'https://gw.example.com', hadV1: true, origin: 'file' }, proxyUrl: 'http://127.0.0.1:9801/v1' }));
  assert.equal(route.baseUrl, 'http://127.0.0.1:9801');
  assert.deepEqual(route.warnings.map((w) => w.cause), ['URL_DOUBLE_V1', 'URL_DOUBLE_V1']);
  const remote = await decideRoute(input(ok, { proxyUrl: 'http://10.0.0.5:9801' }));
  assert.equal(remote.kind, 'direct');
  assert.match(remote.reason, /not a loopback address/);
});

test('addresses compare without trailing slashes or host case', () => {
  assert.ok(sameAddress('http://127.0.0.1:9801/', 'http://127.0.0.1:9801'));
  assert.ok(sameAddress('https://GW.example.com/base/', 'https://gw.example.com/base'));
  assert.ok(!sameAddress('https://gw.example.com/v1', 'https://gw.example.com'));
  assert.ok(!sameAddress(undefined, 'x'));
});
