// What the client sees: the short real POST /v1/messages of the diagnosis, through the route gwctl
// start would take, with the model it would pick; each answer class with its cause code, who gave
// it and a remedy from known-good data; the verdict names one root cause; --no-request sends nothing.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { HttpGet, HttpOutcome } from '../../../core/client/http-get.ts';
import { resolveSettings } from '../../../core/config/resolve-settings.ts';
import { SettingsFile } from '../../../core/config/settings-file.ts';
import { runDiagnosis } from '../../../core/doctor/run-diagnosis.ts';
import type { HttpPost, PostOutcome, PostRequest } from '../../../core/proxy/http-post.ts';

const root = mkdtempSync(join(tmpdir(), 'gwctl-msg-'));
after(() => rmSync(root, { recursive: true, force: true }));
const BASE = 'https://gw.example.com';
const PROXY = 'http://127.0.0.1:9801';
const KEY = 'sk-' + 'm'.repeat(44) + 'Mm56';
const GATEWAY = { 'x-request-id': 'req_gw9', 'request-id': 'req_gw9' };
const json = (status: number, body: unknown): HttpOutcome => ({ kind: 'response', status, headers: {}, body: JSON.stringify(body) });
const answer = (status: number, body: unknown, headers: Record<string, string> = GATEWAY): PostOutcome => ({ kind: 'response', status, headers, body: JSON.stringify(body), eventStream: false });
const error = (type: string, message: string) => ({ type: 'error', error: { type, message } });
let n = 0;

async function diagnose(options: { env?: NodeJS.ProcessEnv; health?: HttpOutcome; models?: string[]; modelsAnswer?: HttpOutcome; messages: PostOutcome; status?: number; sendRequest?: boolean }) {
  const h = join(root, `h${++n}`);
  mkdirSync(h, { recursive: true });
  const env: NodeJS.ProcessEnv = { HOME: h, XDG_CONFIG_HOME: join(h, '.config'), PATH: '/nonexistent', CACHE_FIX_PROXY_UPSTREAM: BASE, ...options.env };
  const settings = resolveSettings({ file: new SettingsFile(env), env, flags: { baseUrl: BASE, proxyUrl: PROXY } });
  const http: HttpGet = async ({ url }) => {
    if (url === `${PROXY}/health`) return options.health ?? json(200, { status: 'ok' });
    if (url === `${BASE}/v1/models`) return options.modelsAnswer ?? json(200, { object: 'list', data: (options.models ?? ['demo-chat', 'demo-image', 'demo-embedding']).map((id) => ({ id })) });
    throw new Error(`unexpected ${url}`);
  };
  const posts: PostRequest[] = [];
  const post: HttpPost = async (request) => {
    posts.push(request);
    return options.messages;
  };
  const report = await runDiagnosis({ env, cwd: h, settings, http, post, status: options.status, sendRequest: options.sendRequest, procVersion: () => '' });
  return { report, check: report.checks.find((c) => c.id === 'messages.request')!, posts };
}

test('a 400 gets its own cause, the upstream message, who answered and a remedy', async () => {
  const refused = answer(400, error('invalid_request_error', 'messages.1.role: Input should be user or assistant'), { ...GATEWAY, 'x-gateway-provider': 'vendor-a', 'request-id': 'req_up1' });
  const { check, report, posts } = await diagnose({ env: { MSGAPI_AUTH_TOKEN: KEY }, messages: refused });
  assert.equal(posts[0]!.url, `${PROXY}/v1/messages`);
  assert.deepEqual([check.status, check.cause], ['fail', 'REQUEST_REJECTED']);
  assert.match(check.observed, /→ 400: invalid_request_error: messages\.1\.role: Input should be user or assistant \(answered by the upstream provider "vendor-a", relayed by the service and the proxy, request-id req_up1\)/);
  assert.match(check.remedy!, /^The upstream provider "vendor-a" refused the request as sent \("messages\.1\.role/);
  assert.doesNotMatch(check.remedy!, /spec/);
  assert.equal(report.checks.find((c) => c.id === 'proxy.upstream')!.status, 'pass', 'the proxy reached the service: its upstream is not blamed');
  assert.deepEqual([report.verdict.cause, report.verdict.check], ['REQUEST_REJECTED', 'messages.request']);
  const seen = await diagnose({ env: { MSGAPI_AUTH_TOKEN: KEY }, messages: refused, status: 400 });
  assert.equal(seen.report.checks.find((c) => c.id === 'status.classify')!.cause, 'REQUEST_REJECTED', 'a reported 400 is explained by the request');
  assert.equal(seen.report.checks.some((c) => c.id === 'proxy.upstream'), false, "the proxy's upstream cannot explain a 400");
});

test('a model the service does not serve: MODEL_NOT_AVAILABLE with a served model to set', async () => {
  const missing = answer(404, error('not_found_error', 'The model "big-model" does not exist or is not available to this key.'));
  const { check } = await diagnose({ env: { ANTHROPIC_AUTH_TOKEN: KEY, GWCTL_CLIENT_MODEL: 'big-model' }, messages: missing });
  assert.equal(check.cause, 'MODEL_NOT_AVAILABLE');
  assert.match(check.observed, /model big-model/);
  assert.deepEqual(check.commands, ['gwctl config set client.model demo-chat', 'gwctl start'], 'an image model is never suggested');
  const limited = answer(403, error('permission_error', 'This API key may not use the model "big-model". It is limited to: demo-chat.'));
  const notAllowed = await diagnose({ env: { ANTHROPIC_AUTH_TOKEN: KEY, GWCTL_CLIENT_MODEL: 'big-model' }, messages: limited });
  assert.deepEqual([notAllowed.check.cause, notAllowed.check.commands[0]], ['MODEL_NOT_AVAILABLE', 'gwctl config set client.model demo-chat'], 'a key limited to some models');
});

test('through a proxy that forwards elsewhere: 401 while the key works directly names the proxy upstream', async () => {
  const vendor = answer(401, error('authentication_error', 'invalid x-api-key'), { 'request-id': 'req_vendor' });
  const { check, report } = await diagnose({ env: { ANTHROPIC_AUTH_TOKEN: KEY, CACHE_FIX_PROXY_UPSTREAM: '' }, messages: vendor, status: 401 });
  assert.equal(check.cause, 'PROXY_UPSTREAM_MISMATCH');
  assert.ok(check.commands.includes(`export CACHE_FIX_PROXY_UPSTREAM=${BASE}`));
  assert.equal(report.verdict.check, 'proxy.upstream');
});

test('through a proxy forwarding to {base_url}/v1: the service answers 404 for /v1/v1, and the proxy upstream is named', async () => {
  const doubled = answer(404, error('not_found_error', 'The URL /v1/v1/messages carries /v1 twice: the base URL already ends in /v1 and the client added another.'));
  const { check, report } = await diagnose({ env: { ANTHROPIC_AUTH_TOKEN: KEY, CACHE_FIX_PROXY_UPSTREAM: `${BASE}/v1` }, messages: doubled });
  assert.equal(check.cause, 'PROXY_UPSTREAM_MISMATCH');
  assert.ok(check.commands.includes(`export CACHE_FIX_PROXY_UPSTREAM=${BASE}`));
  const upstream = report.checks.find((c) => c.id === 'proxy.upstream')!;
  assert.deepEqual([upstream.status, upstream.cause], ['fail', 'PROXY_UPSTREAM_MISMATCH'], 'a wrong path is no proof of a right upstream');
  assert.equal(report.verdict.check, 'proxy.upstream');
});

test('the service itself rejects the key (deleted): KEY_REJECTED, and a deleted key needs a new one', async () => {
  const deleted = answer(401, error('authentication_error', 'The API key is not valid.'));
  const { check, report } = await diagnose({
    env: { ANTHROPIC_AUTH_TOKEN: KEY },
    health: { kind: 'error', failure: { kind: 'refused', code: 'ECONNREFUSED', message: '' } },
    modelsAnswer: json(401, { error: { code: 'invalid_api_key', message: 'The API key is not valid.' } }),
    messages: deleted,
  });
  assert.equal(check.cause, 'KEY_REJECTED');
  // No model list for a rejected key: the request names the client's own default, as the client would.
  assert.match(check.observed, /^POST https:\/\/gw\.example\.com\/v1\/messages \(model claude-opus-4-8, max_tokens 1; direct, real request, may cost a few tokens\) → 401/);
  assert.deepEqual([report.verdict.cause, report.verdict.check], ['KEY_REJECTED', 'messages.request']);
  assert.match(check.observed, /answered by the service at https:\/\/gw\.example\.com itself/);
  assert.match(check.remedy!, /A deleted key is gone for good: create a new one on https:\/\/gw\.example\.com\/keys/);
});

test('429, 413, 529 and 5xx: who answered decides the remedy', async () => {
  const own = await diagnose({ env: { ANTHROPIC_AUTH_TOKEN: KEY }, messages: answer(429, error('rate_limit_error', 'slow down'), { ...GATEWAY, 'retry-after': '7' }) });
  assert.equal(own.check.cause, 'RATE_LIMITED');
  assert.match(own.check.remedy!, /Wait 7 s and retry; it is this service's rate limit for your key/);
  const upstream = await diagnose({ env: { ANTHROPIC_AUTH_TOKEN: KEY }, messages: answer(429, error('rate_limit_error', 'quota'), { ...GATEWAY, 'x-gateway-provider': 'vendor-a' }) });
  assert.match(upstream.check.remedy!, /upstream account behind "vendor-a"/);
  assert.equal((await diagnose({ env: { ANTHROPIC_AUTH_TOKEN: KEY }, messages: answer(413, error('request_too_large', 'too big')) })).check.cause, 'REQUEST_TOO_LARGE');
  assert.equal((await diagnose({ env: { ANTHROPIC_AUTH_TOKEN: KEY }, messages: answer(529, error('overloaded_error', 'busy'), { ...GATEWAY, 'x-gateway-provider': 'vendor-a' }) })).check.cause, 'UPSTREAM_OVERLOADED');
  const served = await diagnose({ env: { ANTHROPIC_AUTH_TOKEN: KEY }, messages: answer(502, error('api_error', 'upstream failed'), { ...GATEWAY, 'x-gateway-provider': 'vendor-a' }), status: 502 });
  assert.equal(served.check.cause, 'UPSTREAM_FAULT');
  assert.equal(served.report.checks.find((c) => c.id === 'fault.locate')!.cause, 'UPSTREAM_FAULT', 'the proxy forwarded it: not a proxy fault');
  const dead = await diagnose({ env: { ANTHROPIC_AUTH_TOKEN: KEY }, messages: answer(502, { error: 'upstream connect failed' }, {}), status: 502 });
  assert.equal(dead.check.cause, 'PROXY_FAULT');
  assert.ok(dead.check.commands.includes(`export CACHE_FIX_PROXY_UPSTREAM=${BASE}`), 'the fix is where it forwards to, not a restart alone');
  assert.equal(dead.report.checks.find((c) => c.id === 'fault.locate')!.cause, 'PROXY_FAULT');
});

test('--no-request sends nothing and says so; without a served model the client own default is asked for', async () => {
  const skipped = await diagnose({ env: { ANTHROPIC_AUTH_TOKEN: KEY }, messages: answer(200, {}), sendRequest: false });
  assert.deepEqual([skipped.check.status, skipped.posts.length], ['skip', 0]);
  assert.match(skipped.check.observed, /not sent \(--no-request\)/);
  const own = await diagnose({ env: { ANTHROPIC_AUTH_TOKEN: KEY }, models: ['claude-sonnet-4-5'], messages: answer(200, { type: 'message', content: [] }) });
  assert.equal(JSON.parse(own.posts[0]!.body).model, 'claude-sonnet-4-5', "the client's own kind of model, one the service serves");
  const custom = await diagnose({ env: { ANTHROPIC_AUTH_TOKEN: KEY, GWCTL_CLIENT_PROFILE: 'custom', GWCTL_CLIENT: 'my-client', MSGAPI_AUTH_TOKEN: KEY }, messages: answer(200, {}) });
  assert.deepEqual([custom.check.status, custom.posts.length], ['skip', 0], 'the custom profile names no model: nothing to ask for');
  assert.match(custom.check.observed, /no model known to ask for/);
});

test('through a proxy that forwards to another gateway instance: the key works directly, so the proxy upstream is the cause, not the key', async () => {
  const otherInstance = answer(401, error('authentication_error', 'Invalid API key (sk-…Mm56): it is unknown, incomplete or was deleted.'), { 'x-request-id': 'req_other', 'request-id': 'req_other' });
  const { check, report } = await diagnose({ env: { ANTHROPIC_AUTH_TOKEN: KEY }, messages: otherInstance, status: 401 });
  assert.equal(check.cause, 'PROXY_UPSTREAM_MISMATCH');
  assert.match(check.observed, /another gateway instance than the one configured/);
  assert.match(check.remedy!, /^The key is fine: the proxy's upstream is the cause/);
  assert.notEqual(report.verdict.cause, 'KEY_REJECTED');
  assert.doesNotMatch(report.verdict.remedy!, /create a new/);
});

test('a used-up budget on the messages route (x-should-retry: false) is QUOTA_EXCEEDED, not a rate limit', async () => {
  const quota = answer(429, error('rate_limit_error', "This key's account has used its monthly budget of 5 requests. This is a quota, not a rate limit: retrying sooner will not help. It resets at 2026-12-01T00:00:00.000Z (in 345600 s)."), { ...GATEWAY, 'retry-after': '345600', 'x-should-retry': 'false' });
  const { check } = await diagnose({ env: { ANTHROPIC_AUTH_TOKEN: KEY }, messages: quota, status: 429 });
  assert.equal(check.cause, 'QUOTA_EXCEEDED');
  assert.match(check.remedy!, /resets in 4 d \(2026-12-01 00:00 UTC\)/);
  assert.doesNotMatch(check.remedy!, /Wait \d/);
});

test('an answer that echoes the key never prints it: observed, remedy and the whole report carry the mask', async () => {
  const echo = answer(401, error('authentication_error', `invalid x-api-key ${KEY}`), { 'request-id': 'req_vendor' });
  const { report } = await diagnose({ env: { ANTHROPIC_AUTH_TOKEN: KEY }, messages: echo, modelsAnswer: json(401, { error: { code: 'invalid_api_key', message: `no such key: ${KEY}` } }), status: 401 });
  const text = JSON.stringify(report);
  assert.ok(!text.includes(KEY), 'the key is in the report');
  assert.match(text, /invalid x-api-key sk-…Mm56/);
});
