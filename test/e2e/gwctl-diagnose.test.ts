// gwctl diagnose against a started gateway, a fake proxy and fake upstreams, with service definition
// and settings files under a temp HOME: each cause code from a real scenario, asserted through --json.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { FakeProxy, unusedPort } from '../helpers/fake-proxy.ts';
import { installFakeClient } from '../helpers/fake-client.ts';
import { FakeUpstream, rawReply } from '../helpers/fake-upstream.ts';
import { GatewayProcess } from '../helpers/gateway-process.ts';
import { gwctl, gwctlJson, makeSandbox, type Sandbox } from '../cli/gwctl-harness.ts';

let gateway: GatewayProcess;
let proxy: FakeProxy;
let degraded: FakeProxy;
let failing: FakeUpstream;
const sandboxes: Sandbox[] = [];

before(async () => {
  [gateway, proxy, degraded, failing] = await Promise.all([GatewayProcess.start({ rateLimit: 3 }), FakeProxy.start('ok'), FakeProxy.start('degraded'), FakeUpstream.start()]);
  failing.handle(() => rawReply(503, 'upstream unavailable'));
});
after(async () => {
  await Promise.all([gateway?.cleanup(), proxy?.close(), degraded?.close(), failing?.close()]);
  for (const s of sandboxes) s.cleanup();
});

async function newKey(): Promise<{ id: string; key: string }> {
  const s = makeSandbox();
  sandboxes.push(s);
  const created = await gwctlJson(['admin', 'key', 'create', '--user', 'admin', '--data-dir', gateway.dataDir], s.env);
  assert.equal(created.code, 0, created.err);
  return created.json;
}

/** A user machine: gwctl settings, the client's variables, optional unit file and settings files. */
function machine(options: { proxyUrl?: string; env?: NodeJS.ProcessEnv; unit?: string; settings?: unknown } = {}): Sandbox {
  const s = makeSandbox({ GWCTL_BASE_URL: gateway.textUrl, GWCTL_PROXY_URL: options.proxyUrl ?? proxy.url });
  sandboxes.push(s);
  const settingsFile = join(s.project, '.claude', 'settings.json');
  s.env.GWCTL_SETTINGS_FILES = `${join(s.home, '.claude', 'settings.json')}:${settingsFile}`;
  if (options.unit !== undefined) {
    mkdirSync(join(s.home, '.config', 'systemd', 'user'), { recursive: true });
    writeFileSync(join(s.home, '.config', 'systemd', 'user', 'cache-fix-proxy.service'), options.unit);
  }
  if (options.settings !== undefined) {
    mkdirSync(join(s.project, '.claude'), { recursive: true });
    writeFileSync(settingsFile, JSON.stringify(options.settings, null, 2));
  }
  Object.assign(s.env, options.env);
  return s;
}

function unit(upstream?: string): string {
  return ['[Service]', 'ExecStart=/usr/bin/node /opt/cache-fix-proxy/bin/cache-fix-proxy.js server', 'Environment=CACHE_FIX_PROXY_PORT=9801', ...(upstream ? [`Environment=CACHE_FIX_PROXY_UPSTREAM=${upstream}`] : []), ''].join('\n');
}

async function diagnose(s: Sandbox, args: string[] = []) {
  const run = await gwctlJson(['diagnose', ...args], s.env);
  const secret = s.env.MSGAPI_AUTH_TOKEN;
  if (secret) assert.ok(!run.out.includes(secret) && !run.err.includes(secret), 'the key is never printed');
  const by = Object.fromEntries(run.json.checks.map((c: { id: string }) => [c.id, c])) as Record<string, { status: string; cause: string; observed: string; remedy: string; commands: string[] }>;
  return { ...run, by };
}

test('OK: proxy healthy, client pointed at it, upstream right, key works', async () => {
  const key = (await newKey()).key;
  const s = machine({ unit: unit(gateway.textUrl), env: { MSGAPI_BASE_URL: proxy.url, MSGAPI_AUTH_TOKEN: key } });
  const run = await diagnose(s);
  assert.equal(run.code, 0, JSON.stringify(run.json, null, 2));
  assert.deepEqual(Object.keys(run.json), ['schemaVersion', 'ok', 'checks']);
  assert.equal(run.json.ok, true);
  assert.ok(run.json.checks.every((c: { status: string; cause: string | null }) => (c.status === 'skip' ? c.cause === null : c.cause === 'OK')));
  assert.match(run.by['direct.request'].observed, /200, 1 model: demo-chat/);
});

test('PROXY_DOWN and PROXY_DEGRADED', async () => {
  const key = (await newKey()).key;
  const downUrl = `http://127.0.0.1:${await unusedPort()}`;
  const down = await diagnose(machine({ proxyUrl: downUrl, env: { MSGAPI_BASE_URL: downUrl, MSGAPI_AUTH_TOKEN: key, CACHE_FIX_PROXY_UPSTREAM: gateway.textUrl } }));
  assert.equal(down.code, 1);
  assert.deepEqual([down.by['proxy.running'].status, down.by['proxy.running'].cause], ['fail', 'PROXY_DOWN']);
  assert.ok(down.by['proxy.running'].commands.includes('gwctl start'));
  const sick = await diagnose(machine({ proxyUrl: degraded.url, env: { MSGAPI_BASE_URL: degraded.url, MSGAPI_AUTH_TOKEN: key } }), ['--status', '503']);
  assert.equal(sick.by['proxy.running'].cause, 'PROXY_DEGRADED');
  assert.match(sick.by['proxy.running'].observed, /503 degraded \(failed extensions: sort-stabilization\.mjs\)/);
  assert.equal(sick.by['status.classify'].cause, 'PROXY_DEGRADED');
});

test('PROXY_UPSTREAM_DEFAULT (the classic 401) and PROXY_UPSTREAM_MISMATCH from the installed unit', async () => {
  const key = (await newKey()).key;
  const classic = await diagnose(machine({ unit: unit(), env: { MSGAPI_BASE_URL: proxy.url, MSGAPI_AUTH_TOKEN: key } }), ['--status', '401']);
  assert.equal(classic.code, 1);
  assert.equal(classic.by['proxy.upstream'].cause, 'PROXY_UPSTREAM_DEFAULT');
  assert.ok(classic.by['proxy.upstream'].commands.includes(`export CACHE_FIX_PROXY_UPSTREAM=${gateway.textUrl}`));
  assert.equal(classic.by['status.classify'].cause, 'PROXY_UPSTREAM_DEFAULT');
  assert.equal(classic.by['direct.request'].cause, 'OK', 'the key itself works directly');
  const other = await diagnose(machine({ unit: unit('https://relay.example.com'), env: { MSGAPI_BASE_URL: proxy.url, MSGAPI_AUTH_TOKEN: key } }));
  assert.equal(other.by['proxy.upstream'].cause, 'PROXY_UPSTREAM_MISMATCH');
});

test('TOKEN_MISSING_IN_SHELL, BASE_URL_NOT_PROXY, BASE_URL_PINNED_IN_SETTINGS', async () => {
  const key = (await newKey()).key;
  const noToken = await diagnose(machine({ unit: unit(gateway.textUrl), env: { MSGAPI_BASE_URL: proxy.url } }), ['--status', '401']);
  assert.equal(noToken.by['client.credential'].cause, 'TOKEN_MISSING_IN_SHELL');
  assert.equal(noToken.by['status.classify'].cause, 'TOKEN_MISSING_IN_SHELL');
  const elsewhere = await diagnose(machine({ unit: unit(gateway.textUrl), env: { MSGAPI_BASE_URL: 'https://somewhere.example.com', MSGAPI_AUTH_TOKEN: key } }));
  assert.deepEqual([elsewhere.by['client.base-url'].status, elsewhere.by['client.base-url'].cause], ['fail', 'BASE_URL_NOT_PROXY']);
  const pinned = await diagnose(machine({ unit: unit(gateway.textUrl), settings: { env: { MSGAPI_BASE_URL: gateway.textUrl }, model: 'x' }, env: { MSGAPI_BASE_URL: proxy.url, MSGAPI_AUTH_TOKEN: key } }));
  assert.equal(pinned.by['client.settings-pins'].cause, 'BASE_URL_PINNED_IN_SETTINGS');
  assert.equal(pinned.by['client.base-url'].cause, 'BASE_URL_NOT_PROXY', 'the pinned value wins over the shell');
  assert.ok(pinned.by['client.settings-pins'].commands.includes('gwctl start --restore   # undo'));
});

test('EXECUTION_PLANE_MISMATCH: WSL with a Windows client program', async () => {
  const key = (await newKey()).key;
  const s = machine({ unit: unit(gateway.textUrl), env: { MSGAPI_BASE_URL: proxy.url, MSGAPI_AUTH_TOKEN: key, WSL_DISTRO_NAME: 'Ubuntu', GWCTL_CLIENT: 'claude.exe' } });
  installFakeClient(s.bin, 'claude.exe');
  const run = await diagnose(s);
  assert.equal(run.by['plane.same'].cause, 'EXECUTION_PLANE_MISMATCH');
  assert.match(run.by['plane.same'].observed, /WSL \(Ubuntu\).*claude\.exe is a Windows program/);
});

test('PROXY_FAULT and UPSTREAM_FAULT: the direct request tells them apart after a 502/503', async () => {
  const key = (await newKey()).key;
  const proxyFault = await diagnose(machine({ unit: unit(gateway.textUrl), env: { MSGAPI_BASE_URL: proxy.url, MSGAPI_AUTH_TOKEN: key } }), ['--status', '502']);
  assert.equal(proxyFault.by['direct.request'].cause, 'OK');
  assert.equal(proxyFault.by['fault.locate'].cause, 'PROXY_FAULT');
  assert.equal(proxyFault.code, 1);
  const s = machine({ env: { MSGAPI_BASE_URL: proxy.url, MSGAPI_AUTH_TOKEN: key, GWCTL_BASE_URL: failing.url, CACHE_FIX_PROXY_UPSTREAM: failing.url } });
  const upstream = await diagnose(s, ['--status', '503']);
  assert.equal(upstream.by['direct.request'].cause, 'UPSTREAM_FAULT');
  assert.equal(upstream.by['fault.locate'].cause, 'UPSTREAM_FAULT');
});

test('KEY_REJECTED and RATE_LIMITED on the direct request', async () => {
  const { id, key: doomed } = await newKey();
  await gwctl(['admin', 'key', 'delete', id, '--data-dir', gateway.dataDir], sandboxes[0]!.env);
  const rejected = await diagnose(machine({ unit: unit(gateway.textUrl), env: { MSGAPI_BASE_URL: proxy.url, MSGAPI_AUTH_TOKEN: doomed } }), ['--status', '401']);
  assert.equal(rejected.by['direct.request'].cause, 'KEY_REJECTED');
  const { key: busy } = await newKey();
  for (let i = 0; i < 3; i++) await (await fetch(`${gateway.textUrl}/v1/models`, { headers: { authorization: `Bearer ${busy}` } })).arrayBuffer();
  const limited = await diagnose(machine({ env: { MSGAPI_BASE_URL: proxy.url, MSGAPI_AUTH_TOKEN: busy } }), ['--status', '429']);
  assert.deepEqual(limited.json.checks.map((c: { id: string }) => c.id), ['client.credential', 'status.classify', 'direct.request']);
  assert.equal(limited.by['direct.request'].cause, 'RATE_LIMITED');
});

test('usage errors exit 2: an unsupported --status', async () => {
  const run = await gwctl(['diagnose', '--status', '418'], machine().env);
  assert.equal(run.code, 2);
  assert.match(run.err, /--status must be one of 401, 403, 404, 429, 502, 503/);
});
