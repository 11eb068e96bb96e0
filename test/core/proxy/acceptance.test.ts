// Three-layer acceptance against a stand-in proxy that writes quota-status files under a temp HOME,
// with the fake client as the messages client: all layers pass; each fails with its cause when its
// part is broken, the diagnosis naming it (proxy down, wrong key, pinned base address, telemetry).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { resolveSettings } from '../../../core/config/resolve-settings.ts';
import { SettingsFile } from '../../../core/config/settings-file.ts';
import { createProxyOperations } from '../../../core/proxy/proxy-operations.ts';
import { unusedPort } from '../../helpers/fake-proxy.ts';
import { FakeUpstream, jsonReply } from '../../helpers/fake-upstream.ts';
import { ObservingProxy, type ObservingProxyOptions } from '../../fixtures/gwctl-proxy/observing-proxy.ts';
import { FAKE_CLIENT } from '../../fixtures/gwctl-proxy/proxy-sandbox.ts';

const KEY = 'sk-acceptance-key-0001';
const roots: string[] = [];
const proxies: ObservingProxy[] = [];
let gateway: FakeUpstream;

before(async () => {
  gateway = await FakeUpstream.start();
  gateway.handle((req) => (req.headers.authorization === `Bearer ${KEY}` ? jsonReply(200, { data: [{ id: 'demo-chat' }] }) : jsonReply(401, { error: { message: 'invalid key', code: 'invalid_api_key' } })));
});
after(async () => {
  await Promise.all([gateway.close(), ...proxies.map((p) => p.close())]);
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

async function user(options: { telemetry?: boolean; token?: string; proxyUrl?: string; reject?: ObservingProxyOptions['reject']; env?: NodeJS.ProcessEnv } = {}) {
  const root = mkdtempSync(join(tmpdir(), 'gwctl-accept-'));
  roots.push(root);
  const home = join(root, 'home');
  const bin = join(root, 'bin');
  mkdirSync(home, { recursive: true });
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'claude'), `#!/bin/sh\nexec '${process.execPath}' '${FAKE_CLIENT}' "$@"\n`, { mode: 0o755 });
  const proxy = await ObservingProxy.start({ home, key: KEY, telemetry: options.telemetry, reject: options.reject });
  proxies.push(proxy);
  const env: NodeJS.ProcessEnv = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    PATH: `${bin}:/usr/bin:/bin`,
    GWCTL_BASE_URL: gateway.url,
    GWCTL_PROXY_URL: options.proxyUrl ?? proxy.url,
    CACHE_FIX_PROXY_UPSTREAM: gateway.url,
    MSGAPI_AUTH_TOKEN: options.token ?? KEY,
    CACHE_FIX_SERVICE_PLATFORM: 'linux',
    ...options.env,
  };
  const ops = () => createProxyOperations({ env, cwd: home, settings: resolveSettings({ file: new SettingsFile(env), env }), platform: 'linux', observationWaitMs: 2_000, procVersion: () => 'Linux' });
  return { home, proxy, env, ops };
}

describe('gwctl accept layers', { concurrency: 3 }, () => {
  test('all three layers pass with evidence', async () => {
    const u = await user();
    const seen: string[] = [];
    const report = await u.ops().acceptance({ onProgress: (id) => seen.push(id) });
    assert.equal(report.ok, true, JSON.stringify(report, null, 2));
    assert.deepEqual(seen, ['proxy_running', 'claude_routed', 'cache_observed']);
    assert.deepEqual(report.checks.map((c) => [c.id, c.status, c.cause]), [['proxy_running', 'pass', 'OK'], ['claude_routed', 'pass', 'OK'], ['cache_observed', 'pass', 'OK']]);
    assert.match(report.checks[1]!.observed, /claude -p 'Reply with exactly one word: ok' → exit 0, reply "ok"; proxy observation updated: ~\/\.claude\/quota-status\/sessions\/[0-9a-f-]+\.json \(session/);
    assert.match(report.layers[2]!.evidence[0]!, /~\/\.claude\/quota-status\/sessions\/.*\.json/);
    assert.equal(u.proxy.requests, 1);
  });

  test('proxy stopped: proxy_running fails with PROXY_DOWN and the rest is not run', async () => {
    const u = await user({ proxyUrl: `http://127.0.0.1:${await unusedPort()}` });
    const report = await u.ops().acceptance();
    assert.equal(report.ok, false);
    assert.deepEqual(report.checks.map((c) => [c.id, c.status, c.cause]), [['proxy_running', 'fail', 'PROXY_DOWN'], ['claude_routed', 'skip', null], ['cache_observed', 'skip', null]]);
    assert.ok(report.layers[0]!.diagnosis, 'the diagnosis ran');
    assert.equal(u.proxy.requests, 0);
  });

  test('a wrong key: claude_routed fails, the diagnosis names KEY_REJECTED from the short request through the proxy', async () => {
    const u = await user({ token: 'sk-wrong-key-000000000' });
    const report = await u.ops().acceptance();
    const routed = report.checks[1]!;
    assert.equal(routed.status, 'fail');
    assert.equal(routed.cause, 'KEY_REJECTED');
    assert.match(routed.observed, /the client reports 401.*diagnosis: messages\.request KEY_REJECTED: POST http:\/\/127\.0\.0\.1:\d+\/v1\/messages .* → 401/);
    assert.equal(report.layers[1]!.diagnosis!.checks.find((c) => c.id === 'direct.request')?.cause, 'KEY_REJECTED', 'the direct request agrees');
    assert.equal(report.layers[1]!.diagnosis!.checks.find((c) => c.id === 'status.classify')?.status !== undefined, true, 'diagnosed as --status 401');
    assert.equal(report.checks[2]!.status, 'skip');
  });

  test('a reply that did not come through the proxy: the pinned base address is named', async () => {
    const u = await user({ telemetry: false });
    mkdirSync(join(u.home, '.claude'), { recursive: true });
    writeFileSync(join(u.home, '.claude', 'settings.json'), JSON.stringify({ env: { ANTHROPIC_BASE_URL: gateway.url } }));
    const report = await u.ops().acceptance();
    const routed = report.checks[1]!;
    assert.equal(routed.status, 'fail');
    assert.equal(routed.cause, 'BASE_URL_PINNED_IN_SETTINGS', routed.observed);
    assert.match(routed.observed, /no proxy observation moved/);
  });

  test('a request the service refused (400) names what failed, not the proxy upstream setting of this shell', async () => {
    // The proxy runs with its own upstream (started elsewhere); this shell has none set.
    const refused = {
      status: 400,
      headers: { 'x-request-id': 'req_gw7', 'request-id': 'req_up7', 'x-gateway-provider': 'vendor-a' },
      body: { type: 'error', error: { type: 'invalid_request_error', message: 'messages.1.role: Input should be user or assistant' } },
    };
    const u = await user({ reject: refused, env: { CACHE_FIX_PROXY_UPSTREAM: '' } });
    const report = await u.ops().acceptance();
    const routed = report.checks[1]!;
    assert.deepEqual([routed.status, routed.cause], ['fail', 'REQUEST_REJECTED'], routed.observed);
    assert.match(routed.observed, /the client reports 400/);
    assert.match(routed.observed, /diagnosis: messages\.request REQUEST_REJECTED: .*→ 400: invalid_request_error: messages\.1\.role: Input should be user or assistant \(answered by the upstream provider "vendor-a", relayed by the service and the proxy, request-id req_up7\)/);
    assert.doesNotMatch(`${routed.cause} ${routed.observed} ${routed.remedy}`, /PROXY_UPSTREAM_DEFAULT|CACHE_FIX_PROXY_UPSTREAM/);
  });

  test('telemetry dir unwritable: cache_observed fails with TELEMETRY_UNWRITABLE', async () => {
    const u = await user();
    mkdirSync(join(u.home, '.claude'), { recursive: true });
    writeFileSync(join(u.home, '.claude', 'quota-status'), 'a file in the way\n');
    const report = await u.ops().acceptance();
    assert.equal(report.ok, false);
    assert.deepEqual(report.checks.map((c) => [c.id, c.status, c.cause]), [['proxy_running', 'pass', 'OK'], ['claude_routed', 'warn', 'TELEMETRY_UNWRITABLE'], ['cache_observed', 'fail', 'TELEMETRY_UNWRITABLE']]);
    assert.match(report.checks[2]!.observed, /~\/\.claude\/quota-status is a file, not a directory/);
  });
});
