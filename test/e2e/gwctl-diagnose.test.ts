// gwctl diagnose against a started gateway, a fake proxy that forwards like the real one and fake
// upstreams, with service definition and settings files under a temp HOME: each cause code from a
// real scenario, asserted through --json, including the short real request through the client's
// route and the verdict that names one root cause.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, beforeEach, test } from 'node:test';
import { FakeProxy, unusedPort } from '../helpers/fake-proxy.ts';
import { installFakeClient } from '../helpers/fake-client.ts';
import { FakeUpstream, jsonReply } from '../helpers/fake-upstream.ts';
import { GatewayProcess } from '../helpers/gateway-process.ts';
import { gwctl, gwctlJson, makeSandbox, type Sandbox } from '../cli/gwctl-harness.ts';

let gateway: GatewayProcess;
let proxy: FakeProxy;
let degraded: FakeProxy;
let failing: FakeUpstream;
let vendor: FakeUpstream;
const sandboxes: Sandbox[] = [];

before(async () => {
  [gateway, proxy, degraded, failing, vendor] = await Promise.all([GatewayProcess.start({ rateLimit: 3 }), FakeProxy.start('ok'), FakeProxy.start('degraded'), FakeUpstream.start(), FakeUpstream.start()]);
  // A service in trouble: its own id on the answer, as the gateway sends it.
  failing.handle(() => jsonReply(503, { type: 'error', error: { type: 'api_error', message: 'upstream unavailable' } }, { 'x-request-id': 'req_f1', 'request-id': 'req_f1' }));
  // The vendor a proxy left at its default reaches: it does not know this service's keys.
  vendor.handle(() => jsonReply(401, { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } }, { 'request-id': 'req_vendor' }));
});
beforeEach(() => {
  proxy.forwardTo = gateway.textUrl;
});
after(async () => {
  await Promise.all([gateway?.cleanup(), proxy?.close(), degraded?.close(), failing?.close(), vendor?.close()]);
  for (const s of sandboxes) s.cleanup();
});

async function newKey(limits: string[] = []): Promise<{ id: string; key: string }> {
  const s = makeSandbox();
  sandboxes.push(s);
  const created = await gwctlJson(['admin', 'key', 'create', '--user', 'admin', ...limits, '--data-dir', gateway.dataDir], s.env);
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
  const secret = s.env.ANTHROPIC_AUTH_TOKEN;
  if (secret) assert.ok(!run.out.includes(secret) && !run.err.includes(secret), 'the key is never printed');
  const by = Object.fromEntries(run.json.checks.map((c: { id: string }) => [c.id, c])) as Record<string, { status: string; cause: string; observed: string; remedy: string; commands: string[] }>;
  return { ...run, by };
}

test('OK: proxy healthy, client pointed at it, upstream right, key works', async () => {
  const key = (await newKey()).key;
  const s = machine({ unit: unit(gateway.textUrl), env: { ANTHROPIC_BASE_URL: proxy.url, ANTHROPIC_AUTH_TOKEN: key } });
  const run = await diagnose(s);
  assert.equal(run.code, 0, JSON.stringify(run.json, null, 2));
  assert.deepEqual(Object.keys(run.json), ['schemaVersion', 'ok', 'checks', 'client', 'verdict']);
  assert.equal(run.json.client, 'messages', 'the claude profile is a messages client');
  assert.equal(run.json.ok, true);
  // No client is installed on this machine: that one finding is a warning, not a failure.
  assert.equal(run.by['client.found'].cause, 'CLIENT_NOT_FOUND');
  assert.ok(run.json.checks.filter((c: { id: string }) => c.id !== 'client.found').every((c: { status: string; cause: string | null }) => (c.status === 'skip' ? c.cause === null : c.cause === 'OK')));
  assert.match(run.by['direct.request'].observed, /200, \d+ models?: demo-chat/);
  assert.match(run.by['messages.request'].observed, /^POST http:\/\/127\.0\.0\.1:\d+\/v1\/messages \(model demo-chat, max_tokens 1; through the proxy, real request, may cost a few tokens\) → 200, a normal reply/);
  assert.match(run.by['messages.request'].observed, /answered by the upstream provider "demo", relayed by the service and the proxy/);
  assert.equal(proxy.messagesRequests > 0, true, 'the request went through the proxy');
  assert.equal(run.json.verdict.cause, 'OK');
  assert.match(run.err, /sends one short real request \(POST \/v1\/messages, max_tokens 1; it may cost a few tokens\)/);
  const quiet = await gwctlJson(['diagnose', '--no-request'], s.env);
  assert.match(quiet.json.checks.find((c: { id: string }) => c.id === 'messages.request').observed, /not sent \(--no-request\)/);
});

test('PROXY_DOWN and PROXY_DEGRADED', async () => {
  const key = (await newKey()).key;
  const downUrl = `http://127.0.0.1:${await unusedPort()}`;
  const down = await diagnose(machine({ proxyUrl: downUrl, env: { ANTHROPIC_BASE_URL: downUrl, ANTHROPIC_AUTH_TOKEN: key, CACHE_FIX_PROXY_UPSTREAM: gateway.textUrl } }));
  assert.equal(down.code, 1);
  assert.deepEqual([down.by['proxy.running'].status, down.by['proxy.running'].cause], ['fail', 'PROXY_DOWN']);
  assert.ok(down.by['proxy.running'].commands.includes('gwctl start'));
  assert.match(down.by['messages.request'].observed, /direct, real request.*→ 200/, 'the route the client would take: direct while the proxy is down');
  const sick = await diagnose(machine({ proxyUrl: degraded.url, env: { ANTHROPIC_BASE_URL: degraded.url, ANTHROPIC_AUTH_TOKEN: key } }), ['--status', '503']);
  assert.equal(sick.by['proxy.running'].cause, 'PROXY_DEGRADED');
  assert.match(sick.by['proxy.running'].observed, /503 degraded \(failed extensions: sort-stabilization\.mjs\)/);
  assert.equal(sick.by['status.classify'].cause, 'PROXY_DEGRADED');
});

test('PROXY_UPSTREAM_DEFAULT (the classic 401) and PROXY_UPSTREAM_MISMATCH from the installed unit', async () => {
  const key = (await newKey()).key;
  proxy.forwardTo = vendor.url;
  const classic = await diagnose(machine({ unit: unit(), env: { ANTHROPIC_BASE_URL: proxy.url, ANTHROPIC_AUTH_TOKEN: key } }), ['--status', '401']);
  assert.equal(classic.code, 1);
  assert.equal(classic.by['proxy.upstream'].cause, 'PROXY_UPSTREAM_DEFAULT');
  assert.ok(classic.by['proxy.upstream'].commands.includes(`export CACHE_FIX_PROXY_UPSTREAM=${gateway.textUrl}`));
  assert.equal(classic.by['status.classify'].cause, 'PROXY_UPSTREAM_DEFAULT');
  assert.equal(classic.by['direct.request'].cause, 'OK', 'the key itself works directly');
  assert.equal(classic.by['messages.request'].cause, 'PROXY_UPSTREAM_MISMATCH', 'through the proxy the key reaches someone else');
  assert.deepEqual([classic.json.verdict.cause, classic.json.verdict.check], ['PROXY_UPSTREAM_DEFAULT', 'proxy.upstream']);
  const other = await diagnose(machine({ unit: unit('https://relay.example.com'), env: { ANTHROPIC_BASE_URL: proxy.url, ANTHROPIC_AUTH_TOKEN: key } }));
  assert.equal(other.by['proxy.upstream'].cause, 'PROXY_UPSTREAM_MISMATCH');
});

test('TOKEN_MISSING_IN_SHELL, BASE_URL_NOT_PROXY, BASE_URL_PINNED_IN_SETTINGS', async () => {
  const key = (await newKey()).key;
  const noToken = await diagnose(machine({ unit: unit(gateway.textUrl), env: { ANTHROPIC_BASE_URL: proxy.url } }), ['--status', '401']);
  assert.equal(noToken.by['client.credential'].cause, 'TOKEN_MISSING_IN_SHELL');
  assert.equal(noToken.by['status.classify'].cause, 'TOKEN_MISSING_IN_SHELL');
  const elsewhere = await diagnose(machine({ unit: unit(gateway.textUrl), env: { ANTHROPIC_BASE_URL: 'https://somewhere.example.com', ANTHROPIC_AUTH_TOKEN: key } }));
  assert.deepEqual([elsewhere.by['client.base-url'].status, elsewhere.by['client.base-url'].cause], ['fail', 'BASE_URL_NOT_PROXY']);
  const pinned = await diagnose(machine({ unit: unit(gateway.textUrl), settings: { env: { ANTHROPIC_BASE_URL: gateway.textUrl }, model: 'x' }, env: { ANTHROPIC_BASE_URL: proxy.url, ANTHROPIC_AUTH_TOKEN: key } }));
  // A fresh key: the gateway here allows 3 requests per key and interval, and each diagnosis sends two.
  const neutral = await diagnose(machine({ unit: unit(gateway.textUrl), env: { MSGAPI_AUTH_TOKEN: (await newKey()).key } }));
  assert.match(neutral.by['client.credential'].observed, /MSGAPI_AUTH_TOKEN is set in this shell \(sk-…\w{4}\); gwctl start hands it to the client as ANTHROPIC_AUTH_TOKEN/);
  assert.equal(neutral.by['messages.request'].cause, 'OK', 'the key kept under the neutral name is sent');
  assert.equal(pinned.by['client.settings-pins'].cause, 'BASE_URL_PINNED_IN_SETTINGS');
  assert.equal(pinned.by['client.base-url'].cause, 'BASE_URL_NOT_PROXY', 'the pinned value wins over the shell');
  assert.ok(pinned.by['client.settings-pins'].commands.includes('gwctl start --restore   # undo'));
});

test('EXECUTION_PLANE_MISMATCH: WSL with a Windows client program', async () => {
  const key = (await newKey()).key;
  const s = machine({ unit: unit(gateway.textUrl), env: { ANTHROPIC_BASE_URL: proxy.url, ANTHROPIC_AUTH_TOKEN: key, WSL_DISTRO_NAME: 'Ubuntu', GWCTL_CLIENT: 'claude.exe' } });
  installFakeClient(s.bin, 'claude.exe');
  const run = await diagnose(s);
  assert.equal(run.by['plane.same'].cause, 'EXECUTION_PLANE_MISMATCH');
  assert.match(run.by['plane.same'].observed, /WSL \(Ubuntu\).*claude\.exe is a Windows program/);
});

test('PROXY_FAULT and UPSTREAM_FAULT: the request through the proxy and the direct one tell them apart after a 502/503', async () => {
  const key = (await newKey()).key;
  // The proxy forwards to a port where nothing listens: it answers 502 itself.
  proxy.forwardTo = `http://127.0.0.1:${await unusedPort()}`;
  const proxyFault = await diagnose(machine({ unit: unit(gateway.textUrl), env: { ANTHROPIC_BASE_URL: proxy.url, ANTHROPIC_AUTH_TOKEN: key } }), ['--status', '502']);
  assert.equal(proxyFault.by['direct.request'].cause, 'OK');
  assert.equal(proxyFault.by['messages.request'].cause, 'PROXY_FAULT');
  assert.match(proxyFault.by['messages.request'].observed, /→ 502.*the service never answered/);
  assert.ok(proxyFault.by['messages.request'].commands.includes(`export CACHE_FIX_PROXY_UPSTREAM=${gateway.textUrl}`), 'the fix names where it must forward to');
  assert.equal(proxyFault.by['fault.locate'].cause, 'PROXY_FAULT');
  assert.deepEqual([proxyFault.json.verdict.cause, proxyFault.json.verdict.check], ['PROXY_FAULT', 'proxy.upstream'], 'the running proxy forwards elsewhere than its definition says');
  assert.equal(proxyFault.by['proxy.upstream'].cause, 'PROXY_FAULT');
  assert.equal(proxyFault.code, 1);
  proxy.forwardTo = failing.url;
  const s = machine({ env: { ANTHROPIC_BASE_URL: proxy.url, ANTHROPIC_AUTH_TOKEN: key, GWCTL_BASE_URL: failing.url, CACHE_FIX_PROXY_UPSTREAM: failing.url } });
  const upstream = await diagnose(s, ['--status', '503']);
  assert.equal(upstream.by['direct.request'].cause, 'UPSTREAM_FAULT');
  assert.equal(upstream.by['fault.locate'].cause, 'UPSTREAM_FAULT');
  assert.equal(upstream.by['messages.request'].cause, 'UPSTREAM_FAULT', 'the service answered through the proxy: not a proxy fault');
});

test('KEY_REJECTED and RATE_LIMITED on the direct request', async () => {
  const { id, key: doomed } = await newKey();
  await gwctl(['admin', 'key', 'delete', id, '--data-dir', gateway.dataDir], sandboxes[0]!.env);
  const rejected = await diagnose(machine({ unit: unit(gateway.textUrl), env: { ANTHROPIC_BASE_URL: proxy.url, ANTHROPIC_AUTH_TOKEN: doomed } }), ['--status', '401']);
  assert.equal(rejected.by['direct.request'].cause, 'KEY_REJECTED');
  assert.equal(rejected.by['messages.request'].cause, 'KEY_REJECTED');
  assert.match(rejected.by['messages.request'].remedy, /A deleted key is gone for good: create a new one on http:\/\/127\.0\.0\.1:\d+\/keys/);
  const { key: busy } = await newKey();
  for (let i = 0; i < 3; i++) await (await fetch(`${gateway.textUrl}/v1/models`, { headers: { authorization: `Bearer ${busy}` } })).arrayBuffer();
  const limited = await diagnose(machine({ env: { ANTHROPIC_BASE_URL: proxy.url, ANTHROPIC_AUTH_TOKEN: busy } }), ['--status', '429']);
  assert.deepEqual(limited.json.checks.map((c: { id: string }) => c.id), ['client.found', 'client.credential', 'messages.request', 'direct.request', 'status.classify']);
  assert.equal(limited.by['messages.request'].cause, 'RATE_LIMITED');
  assert.match(limited.by['messages.request'].remedy, /this service's rate limit for your key/);
  assert.equal(limited.by['direct.request'].cause, 'RATE_LIMITED');
});

test('--client chat: URL_MISSING_V1 for a chat base URL without /v1, no proxy checks; URL_NOT_FOUND from the gateway 404', async () => {
  const { key } = await newKey();
  const s = machine({ env: { ANTHROPIC_AUTH_TOKEN: key } });
  const chat = await diagnose(s, ['--client', 'chat', '--base-url', gateway.textUrl]);
  assert.equal(chat.code, 1);
  assert.equal(chat.json.client, 'chat');
  assert.deepEqual(chat.json.checks.map((c: { id: string }) => c.id), ['client.found', 'key.format', 'direct.request', 'protocol.request']);
  assert.equal(chat.by['direct.request'].cause, 'URL_MISSING_V1');
  assert.equal(chat.by['protocol.request'].status, 'skip', `no model list, so no model to ask for: ${chat.by['protocol.request'].observed}`);
  assert.deepEqual(chat.by['direct.request'].commands, [`gwctl verify --type chat --base-url ${gateway.textUrl}/v1`]);
  assert.deepEqual([chat.json.verdict.cause, chat.json.verdict.check], ['URL_MISSING_V1', 'direct.request']);
  assert.doesNotMatch(chat.out + chat.err, /proxy|POST \/v1\/messages/i, 'nothing about the proxy or the messages request for a chat client');
  const right = await diagnose(s, ['--client', 'chat']);
  assert.equal(right.code, 0, JSON.stringify(right.json.checks));
  const wrong = await diagnose(machine({ proxyUrl: `http://127.0.0.1:${await unusedPort()}`, env: { ANTHROPIC_AUTH_TOKEN: (await newKey()).key, GWCTL_BASE_URL: `${gateway.textUrl}/api` } }));
  assert.equal(wrong.json.verdict.cause, 'URL_NOT_FOUND');
  assert.ok(wrong.json.verdict.commands.includes(`gwctl verify --base-url ${gateway.textUrl}`), JSON.stringify(wrong.json.verdict));
  assert.ok(!wrong.json.verdict.commands.some((c: string) => c.includes('/api')), 'never the address that answered 404');
});

test('usage errors exit 2: an unsupported --status', async () => {
  const run = await gwctl(['diagnose', '--status', '418'], machine().env);
  assert.equal(run.code, 2);
  assert.match(run.err, /--status must be one of 400, 401, 403, 404, 413, 429, 500, 502, 503, 504, 529/);
});

test('the proxy forwards to another gateway instance: the key works directly, so the proxy upstream is the cause, not the key', async () => {
  const other = await GatewayProcess.start();
  try {
    const { key } = await newKey();
    proxy.forwardTo = other.textUrl;
    // The unit names the configured gateway; the running proxy was started with another instance.
    const run = await diagnose(machine({ unit: unit(gateway.textUrl), env: { ANTHROPIC_BASE_URL: proxy.url, ANTHROPIC_AUTH_TOKEN: key } }), ['--status', '401']);
    assert.equal(run.by['direct.request'].status, 'pass');
    assert.equal(run.by['messages.request'].cause, 'PROXY_UPSTREAM_MISMATCH');
    assert.match(run.by['messages.request'].observed, /another gateway instance than the one configured/);
    assert.equal(run.json.verdict.cause, 'PROXY_UPSTREAM_MISMATCH');
    assert.doesNotMatch(run.json.verdict.remedy, /create a new/);
    assert.ok(!run.json.checks.some((c: { cause: string }) => c.cause === 'KEY_REJECTED'), 'the key is not blamed');
  } finally {
    await other.cleanup();
  }
});

test('a used-up budget is QUOTA_EXCEEDED with the reset time in words, never "wait and retry"', async () => {
  const { key } = await newKey(['--budget-requests-day', '1']);
  // One real request uses the budget up.
  const used = await fetch(`${gateway.textUrl}/v1/messages`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' }, body: JSON.stringify({ model: 'demo-chat', max_tokens: 1, messages: [{ role: 'user', content: 'hi' }] }) });
  assert.equal(used.status, 200, await used.text());
  const run = await diagnose(machine({ env: { ANTHROPIC_BASE_URL: proxy.url, ANTHROPIC_AUTH_TOKEN: key } }), ['--status', '429']);
  for (const id of ['messages.request', 'direct.request']) {
    assert.equal(run.by[id].cause, 'QUOTA_EXCEEDED', id);
    assert.match(run.by[id].remedy, /^The budget is used up and resets in \d+ (h|min|s)/, id);
    assert.match(run.by[id].remedy, /retrying sooner will not help/, id);
    assert.doesNotMatch(run.by[id].remedy, /Wait \d+ s and retry|spread requests out/, id);
  }
  assert.match(run.by['direct.request'].observed, /x-should-retry: false/);
  assert.equal(run.json.verdict.cause, 'QUOTA_EXCEEDED');
});
