// Where the proxy's upstream is read from: the running proxy's own environment, its service
// definition, the short real request, and "unknown" when none of them tells, never this shell's
// variable taken for the proxy's. A machine without the optional proxy gets no proxy findings, and a
// definition left at the default is the classic, not a proxy fault.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { procfsProxyEnvironment, type ProxyEnvironmentReader } from '../../../core/proxy/running-proxy-environment.ts';
import { answer, BASE, diagnose, KEY, PROXY, refused } from './diagnose-harness.ts';

const UNIT = '.config/systemd/user/cache-fix-proxy.service';
const running = (environment: Record<string, string>): ProxyEnvironmentReader => (port) => (port === 9801 ? { pid: 4242, command: 'node /x/cache-fix-proxy server', environment } : undefined);
const selfMade502 = answer(502, { error: 'upstream connect failed' }, {});

test('a correctly configured running proxy passes although this shell lacks CACHE_FIX_PROXY_UPSTREAM', async () => {
  const { by, report } = await diagnose({ sendRequest: false, env: { ANTHROPIC_BASE_URL: PROXY, ANTHROPIC_AUTH_TOKEN: KEY }, proxyEnvironment: running({ CACHE_FIX_PROXY_UPSTREAM: BASE }) });
  assert.equal(by['proxy.upstream'].status, 'pass');
  assert.match(by['proxy.upstream'].observed, /CACHE_FIX_PROXY_UPSTREAM=https:\/\/gw\.example\.com in the environment of the running proxy \(pid 4242\)/);
  assert.equal(report.ok, true);
});

test('nothing tells the running proxy\'s upstream: unknown, not a failure', async () => {
  const { by, report } = await diagnose({ sendRequest: false, env: { ANTHROPIC_BASE_URL: PROXY, ANTHROPIC_AUTH_TOKEN: KEY } });
  assert.deepEqual([by['proxy.upstream'].status, by['proxy.upstream'].cause], ['skip', null]);
  assert.match(by['proxy.upstream'].observed, /^unknown: the running proxy's upstream cannot be read/);
  assert.equal(report.ok, true);
});

test("the running proxy's environment wins over this shell: left at the default is the classic 401 cause", async () => {
  const { by, report } = await diagnose({ sendRequest: false, env: { ANTHROPIC_BASE_URL: PROXY, ANTHROPIC_AUTH_TOKEN: KEY, CACHE_FIX_PROXY_UPSTREAM: BASE }, proxyEnvironment: running({ HOME: '/h' }) });
  assert.deepEqual([by['proxy.upstream'].status, by['proxy.upstream'].cause], ['fail', 'PROXY_UPSTREAM_DEFAULT']);
  assert.match(by['proxy.upstream'].observed, /not set \(the built-in default: the official vendor\) in the environment of the running proxy \(pid 4242\)/);
  assert.equal(report.verdict.cause, 'PROXY_UPSTREAM_DEFAULT');
});

test('a service definition made without CACHE_FIX_PROXY_UPSTREAM, answering with its own 502: the classic, not a proxy fault', async () => {
  const { by, report } = await diagnose({ status: 502, files: { [UNIT]: '[Service]\nEnvironment=CACHE_FIX_PROXY_PORT=9801\nExecStart=/usr/bin/node /x server\n' }, env: { ANTHROPIC_BASE_URL: PROXY, ANTHROPIC_AUTH_TOKEN: KEY }, messages: selfMade502 });
  assert.deepEqual([report.verdict.cause, report.verdict.check], ['PROXY_UPSTREAM_DEFAULT', 'proxy.upstream']);
  for (const id of ['proxy.upstream', 'messages.request', 'fault.locate']) assert.equal(by[id].cause, 'PROXY_UPSTREAM_DEFAULT', id);
  assert.ok(!report.checks.some((c) => c.cause === 'PROXY_FAULT'), 'never called a proxy fault');
  assert.ok(by['proxy.upstream'].commands.includes(`export CACHE_FIX_PROXY_UPSTREAM=${BASE}`));
});

test('a machine that never installed the optional proxy gets no proxy warnings', async () => {
  const { report, by } = await diagnose({ env: { ANTHROPIC_AUTH_TOKEN: KEY }, get: { [`${PROXY}/health`]: refused } });
  assert.deepEqual(report.checks.filter((c) => c.status === 'warn' && c.id !== 'client.found').map((c) => `${c.id} ${c.cause}`), []);
  for (const id of ['proxy.running', 'proxy.upstream']) assert.match(by[id].observed, /^not used: /, id);
  assert.equal(by['client.base-url'].status, 'pass');
  // Installed (on PATH) or configured is "used": then a down proxy is worth a warning again.
  const configured = await diagnose({ env: { ANTHROPIC_AUTH_TOKEN: KEY, CACHE_FIX_PROXY_UPSTREAM: BASE }, get: { [`${PROXY}/health`]: refused } });
  assert.deepEqual([configured.by['proxy.running'].status, configured.by['proxy.running'].cause], ['warn', 'PROXY_DOWN']);
});

test("procfs: the environment of the process listening on the proxy port, none when it cannot be read", () => {
  const proc = mkdtempSync(join(tmpdir(), 'gwctl-proc-'));
  after(() => rmSync(proc, { recursive: true, force: true }));
  mkdirSync(join(proc, 'net'), { recursive: true });
  writeFileSync(join(proc, 'net', 'tcp'), '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n   0: 0100007F:2649 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4242 1\n');
  mkdirSync(join(proc, '77', 'fd'), { recursive: true });
  writeFileSync(join(proc, '77', 'cmdline'), 'node\0/usr/lib/node_modules/cache-fix-proxy/dist/cache-fix-proxy.js\0server\0');
  writeFileSync(join(proc, '77', 'environ'), `HOME=/home/u\0CACHE_FIX_PROXY_UPSTREAM=${BASE}\0CACHE_FIX_PROXY_PORT=9801\0`);
  symlinkSync('socket:[4242]', join(proc, '77', 'fd', '3'));
  const read = procfsProxyEnvironment(proc)(9801);
  assert.equal(read?.pid, 77);
  assert.equal(read?.environment.CACHE_FIX_PROXY_UPSTREAM, BASE);
  assert.equal(procfsProxyEnvironment(proc)(9900), undefined, 'nothing listens there');
  rmSync(join(proc, '77', 'environ'));
  assert.equal(procfsProxyEnvironment(proc)(9801), undefined, 'another user\'s process: unreadable, so unknown');
});
