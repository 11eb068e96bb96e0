// diagnose --client: a chat-completions or image client gets the checks that fit it (its own base
// URL and key; no proxy, no messages request), and the default comes from the client profile.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diagnoseChecks } from '../../../core/doctor/diagnose-checks.ts';
import { BASE, IMAGES, KEY, PROXY, diagnose, json } from './diagnose-harness.ts';

const PROXY_CHECKS = ['proxy.running', 'proxy.upstream', 'messages.request', 'fault.locate', 'client.base-url', 'client.settings-pins', 'plane.same'];

test('the claude and custom profiles are messages clients: the proxy checks run', async () => {
  const { report } = await diagnose({ env: { ANTHROPIC_BASE_URL: PROXY, ANTHROPIC_AUTH_TOKEN: KEY, CACHE_FIX_PROXY_UPSTREAM: BASE } });
  assert.equal(report.client, 'messages');
  assert.ok(report.checks.some((c) => c.id === 'proxy.running'));
  const custom = await diagnose({ env: { GWCTL_CLIENT_PROFILE: 'custom', GWCTL_CLIENT: 'my-client', MSGAPI_AUTH_TOKEN: KEY, CACHE_FIX_PROXY_UPSTREAM: BASE } });
  assert.equal(custom.report.client, 'messages');
});

test('a chat client: its base URL {base_url}/v1 and key, no proxy check, no messages request, one chat-completions request', async () => {
  const { report, gets, posts, by } = await diagnose({ client: 'chat', env: { ANTHROPIC_AUTH_TOKEN: KEY } });
  assert.deepEqual(report.checks.map((c) => c.id), ['client.found', 'key.format', 'direct.request', 'protocol.request']);
  assert.deepEqual(gets, [`${BASE}/v1/models`], 'the entry a chat client reaches; /health is never asked');
  assert.deepEqual(posts.map((p) => p.url), [`${BASE}/v1/chat/completions`], 'the short request in its own protocol, never /v1/messages');
  assert.equal(JSON.parse(posts[0]!.body).max_tokens, 1);
  assert.match(by['protocol.request'].observed, /→ 200 \(answered by provider "demo"\): a chat completions answer/);
  const none = await diagnose({ client: 'chat', env: { ANTHROPIC_AUTH_TOKEN: KEY }, sendRequest: false });
  assert.match(none.by['protocol.request'].observed, /not sent \(--no-request\)/);
  assert.equal(none.posts.length, 0);
  assert.equal(report.ok, true);
  for (const id of PROXY_CHECKS) assert.ok(!diagnoseChecks(502, 'chat').some((c) => c.id === id), `${id} is for messages clients`);
});

test('URL_MISSING_V1: a chat base URL without /v1 is found by diagnose', async () => {
  const missing = json(404, { error: { code: 'not_found', message: `Unknown path: GET /models. This address serves ${BASE}/v1/models, /v1/chat/completions and /v1/messages.` } });
  const { by, report } = await diagnose({ client: 'chat', flags: { baseUrl: BASE }, env: { ANTHROPIC_AUTH_TOKEN: KEY }, get: { [`${BASE}/models`]: missing } });
  assert.equal(by['direct.request'].cause, 'URL_MISSING_V1');
  assert.match(by['direct.request'].remedy!, new RegExp(`Use ${BASE}/v1: a chat-completions base URL ends with /v1 once`));
  assert.deepEqual(by['direct.request'].commands, [`gwctl verify --type chat --base-url ${BASE}/v1`]);
  assert.deepEqual([report.verdict.cause, report.verdict.check], ['URL_MISSING_V1', 'direct.request']);
});

test('an image client probes the image address; KEY_MISSING without a key', async () => {
  const { gets, report } = await diagnose({ client: 'images', env: { MSGAPI_AUTH_TOKEN: KEY } });
  assert.deepEqual(gets, [`${IMAGES}/v1/models`]);
  assert.equal(report.ok, true);
  const none = await diagnose({ client: 'images' });
  assert.equal(none.by['direct.request'].cause, 'KEY_MISSING');
  assert.ok(none.by['direct.request'].commands.includes('gwctl diagnose --client images'));
});
