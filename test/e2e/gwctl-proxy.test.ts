// gwctl proxy as users meet it: the packed proxy installed with `gwctl proxy install` into a temp npm
// prefix (real npm), another version refused; the service definition written by the real
// install-service under a temp HOME with a recording fake systemctl; upgrade restarting through it;
// three-layer acceptance against the real proxy on a free port in front of the gateway (demo
// provider) with a fake client, passing and failing with the right cause; two processes on a port.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { GatewayProcess } from '../helpers/gateway-process.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { gwctl, gwctlJson, type Run } from '../cli/gwctl-harness.ts';
import { holdPortTwice, makeTarball, packProxy, proxySandbox, startChild, type Child, type ProxySandbox } from '../fixtures/gwctl-proxy/proxy-sandbox.ts';

let out: string;
let tarball: string;
let otherVersion: string;
let gateway: GatewayProcess;
let key: string;
let shared: ProxySandbox;
let installRun: Run;
const sandboxes: ProxySandbox[] = [];
const children: Child[] = [];

before(async () => {
  out = mkdtempSync(join(tmpdir(), 'gwctl-proxy-pack-'));
  tarball = packProxy(out);
  otherVersion = makeTarball(out, { name: 'cache-fix-proxy', version: '4.3.0', bin: { 'cache-fix-proxy': 'bin/cli.js' } });
  gateway = await GatewayProcess.start();
  key = (await gateway.createKey()).key;
  shared = sandbox();
  installRun = await gwctl(['proxy', 'install'], shared.env);
});
after(async () => {
  await Promise.all(children.map((c) => c.stop()));
  await gateway?.cleanup();
  for (const s of sandboxes) s.cleanup();
  rmSync(out, { recursive: true, force: true });
});

function sandbox(extra: NodeJS.ProcessEnv = {}, prefix?: string): ProxySandbox {
  const s = proxySandbox({ GWCTL_BASE_URL: gateway.textUrl, GWCTL_PROXY_PACKAGE: tarball, MSGAPI_AUTH_TOKEN: key, CACHE_FIX_PROXY_UPSTREAM: gateway.textUrl, ...extra }, { prefix });
  sandboxes.push(s);
  return s;
}

/** The installed proxy in the foreground on a free port, HOME shared with the user's sandbox. */
async function startProxy(s: ProxySandbox, upstream: string): Promise<{ proxy: Child; url: string }> {
  const proxy = startChild(join(shared.prefix, 'bin', 'cache-fix-proxy'), ['server'], { PATH: process.env.PATH, HOME: s.home, CACHE_FIX_PROXY_PORT: '0', CACHE_FIX_PROXY_UPSTREAM: upstream });
  children.push(proxy);
  const port = await waitFor(() => /listening on 127\.0\.0\.1:(\d+)/.exec(proxy.out)?.[1], { timeoutMs: 15_000, what: `the proxy to listen (${proxy.err})` });
  const url = `http://127.0.0.1:${port}`;
  s.env.GWCTL_PROXY_URL = url;
  return { proxy, url };
}

const acceptArgs = ['accept', '--timeout', '30000', '--wait', '3000'];

test('gwctl proxy install: npm into a temp prefix, 4.2.1 verified; status shows it; another version refused (exit 2)', async () => {
  assert.equal(installRun.code, 0, installRun.err + installRun.out);
  assert.match(installRun.out, new RegExp(`\\$ npm install -g --no-audit --no-fund ${tarball.replace(/[.]/g, '\\.')}`));
  assert.match(installRun.out, /cache-fix-proxy@4\.2\.1 in \S+npm-prefix\/lib\/node_modules\/cache-fix-proxy\nOK: proxy 4\.2\.1 installed\./);
  const status = await gwctlJson(['proxy', 'status'], shared.env);
  assert.equal(status.json.installation.active.version, '4.2.1');
  assert.equal(status.json.installation.active.binPath, join(shared.prefix, 'bin', 'cache-fix-proxy'));
  assert.equal(status.json.installation.pinned, true);
  assert.ok(!status.json.checks.some((c: { cause: string }) => c.cause === 'PROXY_VERSION_MISMATCH' || c.cause === 'PROXY_NOT_INSTALLED'));
  const refused = await gwctl(['proxy', 'install', otherVersion], shared.env);
  assert.equal(refused.code, 2);
  assert.match(refused.err, /holds cache-fix-proxy@4\.3\.0, which is refused/);
  assert.equal(JSON.parse(readFileSync(join(shared.prefix, 'lib', 'node_modules', 'cache-fix-proxy', 'package.json'), 'utf8')).version, '4.2.1');
});

test('service install (real install-service, fake systemctl), status, then upgrade restarting at supervisor level', async () => {
  const s = sandbox();
  assert.equal((await gwctl(['proxy', 'install'], s.env)).code, 0);
  const { url } = await startProxy(s, gateway.textUrl);
  const port = new URL(url).port;
  const install = await gwctl(['proxy', 'service', 'install'], s.env);
  assert.equal(install.code, 0, install.err + install.out);
  const unitDir = join(s.home, '.config', 'systemd', 'user');
  const unit = readFileSync(join(unitDir, 'cache-fix-proxy.service'), 'utf8');
  assert.match(unit, new RegExp(`Environment=CACHE_FIX_PROXY_UPSTREAM=${gateway.textUrl}\\n`));
  assert.match(unit, new RegExp(`Environment=CACHE_FIX_PROXY_PORT=${port}\\n`));
  assert.match(unit, new RegExp(`ExecStart=\\S+ ${join(s.prefix, 'lib', 'node_modules', 'cache-fix-proxy', 'bin', 'cache-fix-proxy.js')} server`));
  assert.ok(existsSync(join(unitDir, 'cache-fix-proxy-healthcheck.timer')));
  assert.deepEqual(s.supervisorCalls(), ['systemctl --user daemon-reload', 'systemctl --user enable --now cache-fix-proxy', 'systemctl --user enable --now cache-fix-proxy-healthcheck.timer']);
  assert.match(install.out, /OK: service definition written and enabled\. \/health: GET http:\/\/127\.0\.0\.1:\d+\/health → 200/);

  s.answer('systemctl --user is-enabled cache-fix-proxy', 'enabled');
  s.answer('systemctl --user is-active cache-fix-proxy', 'active');
  const status = await gwctlJson(['proxy', 'status'], s.env);
  assert.equal(status.json.definition.upstream, gateway.textUrl);
  assert.equal(status.json.definition.runs.version, '4.2.1');
  assert.equal(status.json.upstream.check.status, 'pass');
  assert.equal(status.json.supervisor.service.active, 'active');
  assert.equal(status.code, 0, JSON.stringify(status.json.checks, null, 2));

  const upgrade = await gwctlJson(['proxy', 'upgrade'], s.env);
  assert.equal(upgrade.code, 0, upgrade.err);
  assert.equal(s.supervisorCalls().at(-1), 'systemctl --user restart cache-fix-proxy');
  assert.equal(upgrade.json.installed.version, '4.2.1');
  assert.equal(upgrade.json.health.state, 'ok');
  assert.equal(upgrade.json.backups.length, 1);
  assert.equal(readFileSync(upgrade.json.backups[0], 'utf8'), unit);
  assert.match(upgrade.json.plan.bodyAltering.reminder, /short session and a resume run/);
});

describe('gwctl accept against the real proxy and the gateway', { concurrency: 4 }, () => {
  test('all three layers pass; the cache observation is readable afterwards', async () => {
    const s = sandbox();
    await startProxy(s, gateway.textUrl);
    const run = await gwctlJson(acceptArgs, s.env);
    assert.equal(run.code, 0, JSON.stringify(run.json, null, 2));
    assert.deepEqual(run.json.checks.map((c: { id: string; status: string }) => [c.id, c.status]), [['proxy_running', 'pass'], ['claude_routed', 'pass'], ['cache_observed', 'pass']]);
    assert.match(run.json.checks[1].observed, /reply "/);
    assert.match(run.json.layers[2].evidence[0], /~\/\.claude\/quota-status\/sessions\/[0-9a-f-]+\.json \(session,/);
    const cache = await gwctlJson(['proxy', 'cache'], s.env);
    assert.equal(cache.json.sessions.length, 1);
    assert.equal(typeof cache.json.sessions[0].cacheRead, 'number');
  });

  test('proxy stopped: proxy_running fails with PROXY_DOWN', async () => {
    const s = sandbox();
    const { proxy } = await startProxy(s, gateway.textUrl);
    await proxy.stop();
    const run = await gwctlJson(acceptArgs, s.env);
    assert.equal(run.code, 1);
    assert.deepEqual(run.json.checks.map((c: { status: string; cause: string | null }) => [c.status, c.cause]), [['fail', 'PROXY_DOWN'], ['skip', null], ['skip', null]]);
  });

  test('upstream wrong (a chat-completions /v1 address): claude_routed fails with PROXY_UPSTREAM_MISMATCH', async () => {
    const s = sandbox({ CACHE_FIX_PROXY_UPSTREAM: `${gateway.textUrl}/v1` });
    await startProxy(s, `${gateway.textUrl}/v1`);
    const run = await gwctlJson(acceptArgs, s.env);
    assert.equal(run.code, 1);
    const routed = run.json.checks[1];
    assert.equal(routed.status, 'fail');
    assert.equal(routed.cause, 'PROXY_UPSTREAM_MISMATCH', routed.observed);
    assert.match(routed.observed, /the client reports 404/);
  });

  test('telemetry dir unwritable: cache_observed fails with TELEMETRY_UNWRITABLE', async () => {
    const s = sandbox();
    mkdirSync(join(s.home, '.claude'), { recursive: true });
    writeFileSync(join(s.home, '.claude', 'quota-status'), 'in the way\n');
    await startProxy(s, gateway.textUrl);
    const run = await gwctlJson(acceptArgs, s.env);
    assert.equal(run.code, 1);
    assert.deepEqual(run.json.checks.map((c: { status: string; cause: string | null }) => [c.status, c.cause]), [['pass', 'OK'], ['warn', 'TELEMETRY_UNWRITABLE'], ['fail', 'TELEMETRY_UNWRITABLE']]);
  });

  test('two processes holding the proxy port: status reports the port contested (rule 6)', async () => {
    const s = sandbox();
    const { holder, port } = await holdPortTwice(s.env);
    children.push(holder);
    const status = await gwctlJson(['proxy', 'status', '--proxy-url', `http://127.0.0.1:${port}`], s.env);
    assert.equal(status.json.port.contested, true);
    assert.equal(status.json.port.processes.filter((p: { listening: boolean }) => p.listening).length, 2);
    assert.ok(status.json.checks.some((c: { cause: string }) => c.cause === 'PROXY_PORT_CONTESTED'));
    await holder.stop();
  });
});
