// gwctl verify against a started gateway and fake upstreams on loopback: each cause code from a real
// scenario, asserted through --json. gwctl runs in-process (its network calls are real).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { FakeUpstream, jsonReply, rawReply } from '../helpers/fake-upstream.ts';
import { GatewayProcess } from '../helpers/gateway-process.ts';
import { unusedPort } from '../helpers/fake-proxy.ts';
import { gwctl, gwctlJson, makeSandbox, type Sandbox } from '../cli/gwctl-harness.ts';

let gateway: GatewayProcess;
let forbidden: FakeUpstream;
let failing: FakeUpstream;
let sandbox: Sandbox;

before(async () => {
  [gateway, forbidden, failing] = await Promise.all([GatewayProcess.start({ rateLimit: 3 }), FakeUpstream.start(), FakeUpstream.start()]);
  forbidden.handle(() => jsonReply(403, { error: { message: 'This key may not use this upstream.', type: 'permission_error', param: null, code: 'forbidden' } }));
  failing.handle(() => rawReply(503, '<html><body>Service Unavailable</body></html>', 'text/html'));
  sandbox = makeSandbox({ GWCTL_BASE_URL: gateway.textUrl });
});
after(async () => {
  await Promise.all([gateway?.cleanup(), forbidden?.close(), failing?.close()]);
  sandbox?.cleanup();
});

/** A fresh key (each key has its own rate-limit budget of 3 requests a minute). */
async function newKey(): Promise<{ id: string; key: string }> {
  const created = await gwctlJson(['admin', 'key', 'create', '--user', 'admin', '--data-dir', gateway.dataDir], sandbox.env);
  assert.equal(created.code, 0, created.err);
  return created.json;
}

async function verify(args: string[], key: string | undefined) {
  const env = { ...sandbox.env, ...(key === undefined ? {} : { MSGAPI_AUTH_TOKEN: key }) };
  const run = await gwctlJson(['verify', ...args], env);
  if (key && key.length > 12) {
    assert.ok(!run.out.includes(key.trim()) && !run.err.includes(key.trim()), 'the key is never printed');
  }
  const causes = Object.fromEntries(run.json.checks.map((c: { id: string; cause: string }) => [c.id, c.cause]));
  return { ...run, causes };
}

test('OK: a valid key lists the models; address, key and entry work', async () => {
  const { key } = await newKey();
  const run = await verify([], key);
  assert.equal(run.code, 0, run.err);
  assert.equal(run.json.schemaVersion, 1);
  assert.equal(run.json.ok, true);
  assert.deepEqual(run.causes, { 'key.present': 'OK', 'key.format': 'OK', 'url.shape': 'OK', 'models.list': 'OK' });
  assert.ok(run.json.models.includes('demo-chat'), run.json.models.join(', '));
  assert.equal(run.json.modelsUrl, `${gateway.textUrl}/v1/models`);
  assert.equal(run.json.key.masked, `sk-…${key.slice(-4)}`);
  for (const check of run.json.checks) assert.deepEqual(Object.keys(check), ['id', 'status', 'cause', 'observed', 'remedy', 'commands']);
  const chat = await verify(['--type', 'chat'], key);
  assert.equal(chat.json.baseUrl, `${gateway.textUrl}/v1`);
  assert.equal(chat.json.ok, true);
  const images = await verify(['--type', 'images', '--image-base-url', gateway.imageUrl], key);
  assert.equal(images.json.ok, true, JSON.stringify(images.json.checks));
});

test('KEY_MISSING, KEY_WHITESPACE, KEY_QUOTES, KEY_PREFIX', async () => {
  const { key } = await newKey();
  const missing = await verify([], undefined);
  assert.equal(missing.code, 1);
  assert.equal(missing.causes['key.present'], 'KEY_MISSING');
  assert.equal(missing.json.checks.find((c: { id: string }) => c.id === 'models.list').status, 'skip');

  const spaced = await verify([], `${key.slice(0, 20)} ${key.slice(20)}`);
  assert.deepEqual([spaced.causes['key.format'], spaced.causes['models.list']], ['KEY_WHITESPACE', 'KEY_WHITESPACE']);
  const newline = await verify([], `${key}\n`);
  assert.deepEqual([newline.causes['key.format'], newline.causes['models.list']], ['KEY_WHITESPACE', 'KEY_WHITESPACE']);

  const quoted = await verify([], `“${key}”`);
  assert.equal(quoted.code, 1);
  assert.deepEqual([quoted.causes['key.format'], quoted.causes['models.list']], ['KEY_QUOTES', 'KEY_QUOTES']);
  assert.match(quoted.json.checks[3].observed, /401 malformed_api_key/);

  const noPrefix = await verify([], key.slice(3));
  assert.equal(noPrefix.json.checks[1].status, 'warn');
  assert.deepEqual([noPrefix.causes['key.format'], noPrefix.causes['models.list']], ['KEY_PREFIX', 'KEY_REJECTED']);
});

test('KEY_REJECTED: a wrong key, and a key deleted after it worked', async () => {
  const wrong = await verify([], 'sk-' + 'x'.repeat(48));
  assert.equal(wrong.causes['models.list'], 'KEY_REJECTED');
  assert.match(wrong.json.checks[3].remedy, /A deleted key is gone for good: create a new one on http:\/\/127\.0\.0\.1:\d+\/keys/);
  const { id, key } = await newKey();
  assert.equal((await verify([], key)).json.ok, true);
  assert.equal((await gwctl(['admin', 'key', 'delete', id, '--data-dir', gateway.dataDir], sandbox.env)).code, 0);
  const deleted = await verify([], key);
  assert.equal(deleted.code, 1);
  assert.equal(deleted.causes['models.list'], 'KEY_REJECTED');
  assert.match(deleted.json.checks[3].observed, /401 invalid_api_key/);
});

test('URL_DOUBLE_V1, URL_MISSING_V1, URL_NOT_FOUND', async () => {
  const { key } = await newKey();
  const doubled = await verify(['--base-url', `${gateway.textUrl}/v1`], key);
  assert.deepEqual([doubled.causes['url.shape'], doubled.causes['models.list']], ['URL_DOUBLE_V1', 'URL_DOUBLE_V1']);
  assert.match(doubled.json.checks[3].observed, /\/v1\/v1\/models → 404 doubled_v1/);
  const missing = await verify(['--type', 'chat', '--base-url', gateway.textUrl], key);
  assert.deepEqual([missing.causes['url.shape'], missing.causes['models.list']], ['URL_MISSING_V1', 'URL_MISSING_V1']);
  const { key: other } = await newKey();
  const wrongPath = await verify(['--base-url', `${gateway.textUrl}/api`], other);
  assert.equal(wrongPath.causes['models.list'], 'URL_NOT_FOUND');
  // The gateway's own 404 names its base address: the remedy comes from it, never from the wrong input.
  assert.ok(wrongPath.json.checks[3].remedy.includes(`Use ${gateway.textUrl} as a messages client's base address`), wrongPath.json.checks[3].remedy);
  assert.deepEqual(wrongPath.json.checks[3].commands, [`gwctl verify --base-url ${gateway.textUrl}`, `gwctl config set baseUrl ${gateway.textUrl}`]);
  // A chat client under a wrong path: no check suggests an address built from that path.
  const { key: third } = await newKey();
  const chatWrongPath = await verify(['--type', 'chat', '--base-url', `${gateway.textUrl}/api`], third);
  for (const check of chatWrongPath.json.checks as Array<{ remedy?: string; commands?: string[] }>) {
    assert.ok(!`${check.remedy ?? ''} ${(check.commands ?? []).join(' ')}`.includes(`${gateway.textUrl}/api/v1`), JSON.stringify(check));
  }
});

test('URL_UNREACHABLE and TLS_ERROR', async () => {
  const key = 'sk-' + 'u'.repeat(48);
  const port = await unusedPort();
  const refused = await verify(['--base-url', `http://127.0.0.1:${port}`], key);
  assert.equal(refused.causes['models.list'], 'URL_UNREACHABLE');
  assert.match(refused.json.checks[3].observed, /ECONNREFUSED/);
  const tls = await verify(['--base-url', gateway.textUrl.replace('http:', 'https:')], key);
  assert.equal(tls.causes['models.list'], 'TLS_ERROR');
  assert.match(tls.json.checks[3].remedy, /plain HTTP/);
});

test('AUTH_FORBIDDEN and UPSTREAM_FAULT from upstreams answering 403 and 503', async () => {
  const key = 'sk-' + 'f'.repeat(48);
  const denied = await verify(['--base-url', forbidden.url], key);
  assert.equal(denied.causes['models.list'], 'AUTH_FORBIDDEN');
  assert.match(denied.json.checks[3].remedy, /^Check that the credential matches where the request goes: a key of this service works only against http:\/\/127\.0\.0\.1:\d+/);
  assert.equal(forbidden.last().headers.authorization, `Bearer ${key}`);
  const down = await verify(['--base-url', failing.url], key);
  assert.equal(down.causes['models.list'], 'UPSTREAM_FAULT');
  assert.match(down.json.checks[3].observed, /503 <html><body>Service Unavailable/);
});

test('RATE_LIMITED: the gateway answers 429 with Retry-After once the key used its budget', async () => {
  const { key } = await newKey();
  for (let i = 0; i < 3; i++) {
    const response = await fetch(`${gateway.textUrl}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
    await response.arrayBuffer();
  }
  const limited = await verify([], key);
  assert.equal(limited.code, 1);
  assert.equal(limited.causes['models.list'], 'RATE_LIMITED');
  assert.match(limited.json.checks[3].observed, /429 rate_limit_exceeded.*Retry-After: \d+ s/);
});

test('usage errors exit 2', async () => {
  assert.equal((await gwctl(['verify', '--key-env', 'not valid'], sandbox.env)).code, 2);
  assert.equal((await gwctl(['verify', '--type', 'grpc'], sandbox.env)).code, 2);
  assert.equal((await gwctl(['verify', '--base-url', 'ftp://x'], sandbox.env)).code, 2);
  const unset = await gwctl(['verify'], { ...sandbox.env, GWCTL_BASE_URL: '' });
  assert.equal(unset.code, 2);
  assert.match(unset.err, /baseUrl is not set[\s\S]*gwctl config set baseUrl/);
});
