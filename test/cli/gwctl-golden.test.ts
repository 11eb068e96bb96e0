// Golden files for the text output of verify, diagnose, start (dry run, refusal), explain and config
// client, with fake upstream and proxy on loopback. Ports, temp paths, timestamps and key tails are
// normalised. Regenerate with UPDATE_GOLDEN=1 after an intended change, and review the diff.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { FakeProxy } from '../helpers/fake-proxy.ts';
import { installFakeClient } from '../helpers/fake-client.ts';
import { FakeUpstream, jsonReply } from '../helpers/fake-upstream.ts';
import { gwctl, makeSandbox, normalise, type Run, type Sandbox } from './gwctl-harness.ts';

const FIXTURES = fileURLToPath(new URL('../fixtures/gwctl/', import.meta.url));
const KEY = 'sk-' + 'g'.repeat(44) + 'Gg12';
let upstream: FakeUpstream;
let proxy: FakeProxy;
const sandboxes: Sandbox[] = [];

before(async () => {
  [upstream, proxy] = await Promise.all([FakeUpstream.start(), FakeProxy.start('ok')]);
  // The proxy's upstream is the vendor in these scenarios: it rejects this service's key.
  proxy.messagesReply = { status: 401, headers: { 'request-id': 'req_vendor_1' }, body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } } };
  upstream.handle((request) => {
    const path = request.path.split('?')[0];
    if (path === '/v1/models' && request.headers.authorization === `Bearer ${KEY}`) return jsonReply(200, { object: 'list', data: [{ id: 'demo-chat' }, { id: 'demo-image' }] });
    if (path === '/v1/v1/models') return jsonReply(404, { error: { message: 'The URL /v1/v1/models carries /v1 twice.', type: 'not_found_error', param: null, code: 'doubled_v1' } });
    return jsonReply(401, { error: { message: 'The API key is not valid.', type: 'authentication_error', param: null, code: 'invalid_api_key' } });
  });
});
after(async () => {
  await Promise.all([upstream?.close(), proxy?.close()]);
  for (const s of sandboxes) s.cleanup();
});

function machine(env: NodeJS.ProcessEnv = {}): Sandbox {
  const s = makeSandbox({ GWCTL_BASE_URL: upstream.url, GWCTL_PROXY_URL: proxy.url, ...env });
  sandboxes.push(s);
  installFakeClient(s.bin, 'claude');
  s.env.GWCTL_SETTINGS_FILES = `~/.claude/settings.json:${s.project}/.claude/settings.json`;
  return s;
}

function golden(name: string, run: Run, sandbox: Sandbox, stream: 'out' | 'err' = 'out'): void {
  const text = `$ exit ${run.code}\n${normalise(run[stream], sandbox)}`;
  const file = join(FIXTURES, `${name}.txt`);
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) {
    mkdirSync(FIXTURES, { recursive: true });
    writeFileSync(file, text);
  }
  assert.equal(text, readFileSync(file, 'utf8'), `${name}.txt differs; run with UPDATE_GOLDEN=1 if the change is intended`);
}

test('verify: success and a failing configuration', async () => {
  const ok = machine({ MSGAPI_AUTH_TOKEN: KEY });
  golden('verify-ok', await gwctl(['verify'], ok.env), ok);
  const bad = machine({ MSGAPI_AUTH_TOKEN: `“${KEY}”` });
  golden('verify-quotes-double-v1', await gwctl(['verify', '--base-url', `${upstream.url}/v1`], bad.env), bad);
});

test('diagnose --status 401 with the proxy upstream left at its default', async () => {
  const s = machine({ ANTHROPIC_AUTH_TOKEN: KEY, ANTHROPIC_BASE_URL: proxy.url });
  mkdirSync(join(s.home, '.config', 'systemd', 'user'), { recursive: true });
  writeFileSync(join(s.home, '.config', 'systemd', 'user', 'cache-fix-proxy.service'), '[Service]\nEnvironment=CACHE_FIX_PROXY_PORT=9801\n');
  golden('diagnose-401-upstream-default', await gwctl(['diagnose', '--status', '401'], s.env), s);
});

test('start: dry run with pinned settings, and a refusal without the token', async () => {
  const s = machine({ MSGAPI_AUTH_TOKEN: KEY });
  mkdirSync(join(s.project, '.claude'), { recursive: true });
  writeFileSync(join(s.project, '.claude', 'settings.json'), JSON.stringify({ env: { ANTHROPIC_BASE_URL: 'http://127.0.0.1:9801', ANTHROPIC_AUTH_TOKEN: KEY } }));
  golden('start-dry-run-pinned', await gwctl(['start', '--dry-run', '--', '-p', 'hi'], s.env), s);
  // A real start in this process: the fake client prints nothing, so the test output stays clean.
  const started = await gwctl(['start', '--', '-p', 'hi'], s.env);
  golden('start-launch-cleaned', started, s, 'err');
  golden('start-restore', await gwctl(['start', '--restore'], s.env), s);
  const refused = machine();
  golden('start-refused-token-missing', await gwctl(['start'], refused.env), refused, 'err');
});

test('explain 401 and config client', async () => {
  const s = machine({ GWCTL_BASE_URL: 'https://gw.example.com', GWCTL_IMAGE_BASE_URL: 'https://img.example.com' });
  golden('explain-401', await gwctl(['explain', '401'], s.env), s);
  golden('config-client', await gwctl(['config', 'client'], s.env), s);
});
