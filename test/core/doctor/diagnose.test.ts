// The diagnosis engine with faked HTTP and files under a temp HOME: each check's verdict, the order,
// the subset for a reported status, and that no key ever appears in the report.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { HttpGet, HttpOutcome } from '../../../core/client/http-get.ts';
import type { HttpPost, PostOutcome, PostRequest } from '../../../core/proxy/http-post.ts';
import { resolveSettings } from '../../../core/config/resolve-settings.ts';
import { SettingsFile } from '../../../core/config/settings-file.ts';
import { runDiagnosis } from '../../../core/doctor/run-diagnosis.ts';
import { CAUSE_CODES } from '../../../core/doctor/cause-codes.ts';
import { HTTP_STATUS_ROWS } from '../../../core/http-status.ts';

const root = mkdtempSync(join(tmpdir(), 'gwctl-diag-'));
after(() => rmSync(root, { recursive: true, force: true }));
const BASE = 'https://gw.example.com';
const PROXY = 'http://127.0.0.1:9801';
const KEY = 'sk-' + 'k'.repeat(44) + 'Wx34';
const json = (status: number, body: unknown, headers: Record<string, string> = {}): HttpOutcome => ({ kind: 'response', status, headers, body: JSON.stringify(body) });
const refused: HttpOutcome = { kind: 'error', failure: { kind: 'refused', code: 'ECONNREFUSED', message: 'refused' } };
const MODELS = json(200, { object: 'list', data: [{ id: 'demo-chat' }] });

let n = 0;
function home() {
  const h = join(root, `h${++n}`);
  mkdirSync(h, { recursive: true });
  return h;
}

/** The gateway's own answers carry its id in x-request-id and request-id; a relayed one names the provider. */
const gatewayHeaders = { 'x-request-id': 'req_gw1', 'request-id': 'req_gw1' };
const MESSAGE: PostOutcome = { kind: 'response', status: 200, headers: { ...gatewayHeaders, 'x-gateway-provider': 'demo' }, body: JSON.stringify({ type: 'message', content: [{ type: 'text', text: 'Demo' }] }), eventStream: false };
function postJson(status: number, body: unknown, headers: Record<string, string> = gatewayHeaders): PostOutcome {
  return { kind: 'response', status, headers, body: JSON.stringify(body), eventStream: false };
}

async function diagnose(
  options: { env?: NodeJS.ProcessEnv; health?: HttpOutcome; models?: HttpOutcome; status?: number; home?: string; messages?: PostOutcome | ((r: PostRequest) => PostOutcome); sendRequest?: boolean } = {},
) {
  const h = options.home ?? home();
  const env: NodeJS.ProcessEnv = { HOME: h, XDG_CONFIG_HOME: join(h, '.config'), PATH: '/nonexistent', ...options.env };
  const settings = resolveSettings({ file: new SettingsFile(env), env, flags: { baseUrl: BASE, proxyUrl: PROXY } });
  const requests: string[] = [];
  const http: HttpGet = async ({ url, headers }) => {
    requests.push(`${url} ${headers?.authorization ? 'auth' : ''}`.trim());
    if (url === `${PROXY}/health`) return options.health ?? json(200, { status: 'ok' });
    if (url === `${BASE}/v1/models`) return options.models ?? MODELS;
    throw new Error(`unexpected ${url}`);
  };
  const posts: PostRequest[] = [];
  const post: HttpPost = async (request) => {
    posts.push(request);
    const answer = options.messages ?? MESSAGE;
    return typeof answer === 'function' ? answer(request) : answer;
  };
  const report = await runDiagnosis({ env, cwd: join(h, 'project'), settings, http, post, sendRequest: options.sendRequest, status: options.status, procVersion: () => '' });
  const by = Object.fromEntries(report.checks.map((c) => [c.id, c]));
  return { report, by, requests, posts, home: h };
}

test('all good through the proxy: every check passes, in order; one short real request through the proxy', async () => {
  const { report, by, requests, posts } = await diagnose({ env: { ANTHROPIC_BASE_URL: PROXY, ANTHROPIC_AUTH_TOKEN: KEY, CACHE_FIX_PROXY_UPSTREAM: BASE } });
  assert.deepEqual(report.checks.map((c) => c.id), ['client.found', 'plane.same', 'proxy.running', 'client.settings-pins', 'client.base-url', 'client.credential', 'key.format', 'proxy.upstream', 'messages.request', 'direct.request']);
  assert.equal(report.ok, true);
  assert.equal(by['plane.same'].status, 'skip', 'no client on PATH');
  for (const id of ['proxy.running', 'client.base-url', 'client.settings-pins', 'client.credential', 'key.format', 'proxy.upstream', 'messages.request', 'direct.request']) assert.equal(by[id].status, 'pass', id);
  assert.deepEqual(requests, [`${PROXY}/health`, `${BASE}/v1/models auth`], 'one health probe, one direct request');
  assert.equal(posts.length, 1);
  assert.equal(posts[0]!.url, `${PROXY}/v1/messages`, 'the route the client would take');
  assert.equal(posts[0]!.headers.authorization, `Bearer ${KEY}`);
  assert.deepEqual(JSON.parse(posts[0]!.body), { model: 'demo-chat', max_tokens: 1, messages: [{ role: 'user', content: 'ping' }] }, 'the model gwctl start would pick');
  assert.match(by['messages.request'].observed, /real request, may cost a few tokens\) → 200, a normal reply \("Demo"\) \(answered by the upstream provider "demo", relayed by the service and the proxy\)/);
  assert.deepEqual([report.verdict.cause, report.verdict.check, report.verdict.remedy], ['OK', null, null]);
  assert.ok(!JSON.stringify(report).includes(KEY));
});

test('the classic 401: service key, proxy upstream left at its default in the installed unit', async () => {
  const h = home();
  mkdirSync(join(h, '.config', 'systemd', 'user'), { recursive: true });
  writeFileSync(join(h, '.config', 'systemd', 'user', 'cache-fix-proxy.service'), '[Service]\nEnvironment=CACHE_FIX_PROXY_PORT=9801\nExecStart=/usr/bin/node /x server\n');
  // What the vendor answers when the proxy sends it this service's key: no gateway id.
  const vendor401 = postJson(401, { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } }, { 'request-id': 'req_vendor' });
  const { by, report } = await diagnose({ home: h, status: 401, messages: vendor401, env: { ANTHROPIC_BASE_URL: PROXY, ANTHROPIC_AUTH_TOKEN: KEY, CACHE_FIX_PROXY_UPSTREAM: BASE } });
  assert.equal(by['proxy.upstream'].cause, 'PROXY_UPSTREAM_DEFAULT');
  assert.equal(by['proxy.upstream'].status, 'fail');
  assert.match(by['proxy.upstream'].observed, /~\/\.config\/systemd\/user\/cache-fix-proxy\.service/);
  assert.match(by['proxy.upstream'].observed, /this shell has CACHE_FIX_PROXY_UPSTREAM=https:\/\/gw\.example\.com, which the service only picks up after/);
  assert.ok(by['proxy.upstream'].commands.includes('cache-fix-proxy install-service --force'));
  assert.ok(by['proxy.upstream'].commands.some((c) => c.includes('systemctl --user daemon-reload')));
  assert.equal(by['status.classify'].cause, 'PROXY_UPSTREAM_DEFAULT', 'the classification points at the check that explains it');
  assert.equal(by['messages.request'].cause, 'PROXY_UPSTREAM_MISMATCH', 'the key works directly, so the proxy sends it elsewhere');
  assert.match(by['messages.request'].observed, /401: authentication_error: invalid x-api-key \(answered by the proxy or whatever it forwards to, not recognisably this service/);
  assert.deepEqual([report.verdict.cause, report.verdict.check], ['PROXY_UPSTREAM_DEFAULT', 'proxy.upstream']);
  assert.ok(report.verdict.evidence.includes('messages.request PROXY_UPSTREAM_MISMATCH'));
  assert.ok(!('fault.locate' in by), '5xx-only checks are left out for 401');
  assert.equal(report.ok, false);
});

test('upstream set in a quoted systemd line or a launchd plist; mismatch and /v1 are named', async () => {
  const h = home();
  mkdirSync(join(h, '.config', 'systemd', 'user'), { recursive: true });
  writeFileSync(join(h, '.config', 'systemd', 'user', 'cache-fix-proxy.service'), `[Service]\nEnvironment="CACHE_FIX_PROXY_UPSTREAM=${BASE}/" CACHE_FIX_PROXY_PORT=9801\n`);
  assert.equal((await diagnose({ home: h, env: { ANTHROPIC_BASE_URL: PROXY, ANTHROPIC_AUTH_TOKEN: KEY } })).by['proxy.upstream'].status, 'pass');
  const mac = home();
  mkdirSync(join(mac, 'Library', 'LaunchAgents'), { recursive: true });
  writeFileSync(
    join(mac, 'Library', 'LaunchAgents', 'com.cnighswonger.cache-fix-proxy.plist'),
    `<plist><dict><key>EnvironmentVariables</key><dict><key>CACHE_FIX_PROXY_UPSTREAM</key><string>${BASE}/v1</string></dict></dict></plist>`,
  );
  const notFound = postJson(404, { type: 'error', error: { type: 'not_found_error', message: 'Not Found' } }, {});
  const { by } = await diagnose({ home: mac, messages: notFound, env: { ANTHROPIC_BASE_URL: PROXY, ANTHROPIC_AUTH_TOKEN: KEY } });
  assert.equal(by['proxy.upstream'].cause, 'PROXY_UPSTREAM_MISMATCH');
  assert.match(by['proxy.upstream'].observed, /\/v1\/v1\/messages/);
  assert.ok(by['proxy.upstream'].commands.some((c) => c.startsWith('launchctl bootout')));
  const other = await diagnose({ sendRequest: false, env: { ANTHROPIC_BASE_URL: PROXY, ANTHROPIC_AUTH_TOKEN: KEY, CACHE_FIX_PROXY_UPSTREAM: 'https://elsewhere.example.com' } });
  assert.equal(other.by['proxy.upstream'].cause, 'PROXY_UPSTREAM_MISMATCH');
  const vendor = await diagnose({ env: { GWCTL_AUTH: 'vendor', ANTHROPIC_API_KEY: 'sk-vendor', CACHE_FIX_PROXY_UPSTREAM: BASE, ANTHROPIC_BASE_URL: PROXY } });
  assert.equal(vendor.by['proxy.upstream'].cause, 'PROXY_UPSTREAM_MISMATCH');
  assert.equal(vendor.by['direct.request'].status, 'skip');
});

test('proxy down or degraded while the client points at it; direct while it is down is fine', async () => {
  const down = await diagnose({ health: refused, env: { ANTHROPIC_BASE_URL: PROXY, ANTHROPIC_AUTH_TOKEN: KEY, CACHE_FIX_PROXY_UPSTREAM: BASE } });
  assert.deepEqual([down.by['proxy.running'].status, down.by['proxy.running'].cause], ['fail', 'PROXY_DOWN']);
  assert.equal(down.by['client.base-url'].cause, 'PROXY_DOWN');
  const degraded = await diagnose({ health: json(503, { status: 'degraded', failed_extensions: [{ file: 'a.mjs' }] }), env: { ANTHROPIC_BASE_URL: PROXY, ANTHROPIC_AUTH_TOKEN: KEY } });
  assert.equal(degraded.by['proxy.running'].cause, 'PROXY_DEGRADED');
  assert.match(degraded.by['proxy.running'].observed, /a\.mjs/);
  assert.match(degraded.by['proxy.running'].remedy!, /Restart the proxy and check its log; if it stays degraded, start clients directly/);
  const direct = await diagnose({ health: refused, env: { ANTHROPIC_BASE_URL: BASE, ANTHROPIC_AUTH_TOKEN: KEY } });
  // Nothing installed, configured or running: the optional proxy is not used, so no proxy finding at all.
  assert.deepEqual([direct.by['proxy.running'].status, direct.by['client.base-url'].status, direct.by['proxy.upstream'].status], ['skip', 'pass', 'skip']);
  assert.match(direct.by['proxy.running'].observed, /^not used: nothing answers http:\/\/127\.0\.0\.1:9801\/health/);
  assert.equal(direct.report.ok, true);
});

test('base address: not the proxy, unset, with /v1, or pinned in a settings file', async () => {
  assert.equal((await diagnose({ env: { ANTHROPIC_BASE_URL: BASE, ANTHROPIC_AUTH_TOKEN: KEY } })).by['client.base-url'].status, 'warn');
  const unset = await diagnose({ env: { ANTHROPIC_AUTH_TOKEN: KEY } });
  assert.deepEqual([unset.by['client.base-url'].status, unset.by['client.base-url'].cause], ['warn', 'BASE_URL_NOT_PROXY'], 'unset in the shell: gwctl start sets it per session');
  assert.equal((await diagnose({ env: { ANTHROPIC_BASE_URL: 'https://elsewhere.example.com', ANTHROPIC_AUTH_TOKEN: KEY } })).by['client.base-url'].status, 'fail');
  assert.equal((await diagnose({ env: { ANTHROPIC_BASE_URL: `${BASE}/v1`, ANTHROPIC_AUTH_TOKEN: KEY } })).by['client.base-url'].cause, 'URL_DOUBLE_V1');
  const h = home();
  mkdirSync(join(h, '.claude'), { recursive: true });
  writeFileSync(join(h, '.claude', 'settings.json'), JSON.stringify({ env: { ANTHROPIC_BASE_URL: 'https://old.example.com', ANTHROPIC_AUTH_TOKEN: 'sk-pinnedpinnedpinned9999' } }));
  writeFileSync(join(h, '.bashrc'), `export ANTHROPIC_BASE_URL=${PROXY}\n`);
  const pinned = await diagnose({ home: h, env: { ANTHROPIC_BASE_URL: PROXY, ANTHROPIC_AUTH_TOKEN: KEY, CACHE_FIX_PROXY_UPSTREAM: BASE }, status: 401 });
  assert.equal(pinned.by['client.base-url'].cause, 'BASE_URL_NOT_PROXY');
  assert.match(pinned.by['client.base-url'].observed, /pinned in ~\/\.claude\/settings\.json, which wins over the shell/);
  assert.equal(pinned.by['client.settings-pins'].cause, 'BASE_URL_PINNED_IN_SETTINGS');
  assert.match(pinned.by['client.settings-pins'].observed, /~\/\.bashrc:1 ANTHROPIC_BASE_URL/);
  assert.match(pinned.by['client.credential'].observed, /pinned in ~\/\.claude\/settings\.json \(sk-…9999\)/);
  assert.match(pinned.by['direct.request'].observed, /pinned in the settings file/);
  assert.ok(!JSON.stringify(pinned.report).includes('sk-pinnedpinned'));
});

test('token missing, key format, rejected key and rate limit', async () => {
  const missing = await diagnose({ env: { ANTHROPIC_BASE_URL: PROXY }, status: 401 });
  assert.equal(missing.by['client.credential'].cause, 'TOKEN_MISSING_IN_SHELL');
  assert.match(missing.by['client.credential'].observed, /ANTHROPIC_AUTH_TOKEN and MSGAPI_AUTH_TOKEN are not set in this shell.*missing authentication, not an upstream fault$/);
  assert.equal(missing.by['messages.request'].status, 'skip');
  assert.equal(missing.by['direct.request'].status, 'skip');
  const quoted = await diagnose({ env: { ANTHROPIC_BASE_URL: PROXY, ANTHROPIC_AUTH_TOKEN: `"${KEY}"` }, status: 401, models: json(401, { error: { code: 'malformed_api_key', message: 'wrapped in quotes' } }) });
  assert.equal(quoted.by['key.format'].cause, 'KEY_QUOTES');
  assert.equal(quoted.by['direct.request'].cause, 'KEY_QUOTES');
  const rejected = await diagnose({ env: { ANTHROPIC_BASE_URL: PROXY, ANTHROPIC_AUTH_TOKEN: KEY, CACHE_FIX_PROXY_UPSTREAM: BASE }, status: 401, models: json(401, { error: { code: 'invalid_api_key' } }) });
  assert.deepEqual([rejected.by['status.classify'].status, rejected.by['status.classify'].cause], ['fail', 'KEY_REJECTED'], 'classified last: the direct request explains it');
  assert.equal(rejected.by['direct.request'].cause, 'KEY_REJECTED');
  const limited = await diagnose({ env: { ANTHROPIC_BASE_URL: PROXY, ANTHROPIC_AUTH_TOKEN: KEY }, status: 429, models: json(429, { error: { code: 'rate_limit_exceeded' } }, { 'retry-after': '30' }) });
  assert.deepEqual(limited.report.checks.map((c) => c.id), ['client.found', 'client.credential', 'messages.request', 'direct.request', 'status.classify']);
  assert.equal(limited.by['direct.request'].cause, 'RATE_LIMITED');
});

test('5xx: direct works → PROXY_FAULT; direct fails too → UPSTREAM_FAULT', async () => {
  const env = { ANTHROPIC_BASE_URL: PROXY, ANTHROPIC_AUTH_TOKEN: KEY, CACHE_FIX_PROXY_UPSTREAM: BASE };
  const proxyFault = await diagnose({ env, status: 502, sendRequest: false });
  assert.equal(proxyFault.by['fault.locate'].cause, 'PROXY_FAULT');
  assert.equal(proxyFault.report.ok, false);
  const upstream = await diagnose({ env, status: 503, sendRequest: false, models: { kind: 'response', status: 503, headers: {}, body: 'down' } });
  assert.equal(upstream.by['direct.request'].cause, 'UPSTREAM_FAULT');
  assert.equal(upstream.by['fault.locate'].cause, 'UPSTREAM_FAULT');
});

test('the error table only names known cause codes, covers every status a client shows, and stands alone', () => {
  for (const row of HTTP_STATUS_ROWS) for (const cause of row.causes) assert.ok(cause in CAUSE_CODES, cause);
  assert.deepEqual([...new Set(HTTP_STATUS_ROWS.flatMap((r) => r.statuses))].sort((a, b) => a - b), [400, 401, 403, 404, 413, 429, 500, 502, 503, 504, 529]);
  for (const row of HTTP_STATUS_ROWS) {
    const text = `${row.where} ${row.condition} ${row.remedy} ${row.commands.join(' ')}`;
    assert.doesNotMatch(text, /not further described|\bspec\b|rule \d|DESIGN/i, row.id);
  }
});
