// gwctl diagnose --report FILE: the support bundle has what support needs (versions, platform and
// execution plane, settings with their sources, every check as diagnose --json has it, the verdict,
// the request ids of the answers) and none of the run's secrets, wherever they were kept.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { FakeProxy } from '../helpers/fake-proxy.ts';
import { installFakeClient } from '../helpers/fake-client.ts';
import { FakeUpstream, jsonReply } from '../helpers/fake-upstream.ts';
import { gwctl, gwctlJson, makeSandbox, type Sandbox } from './gwctl-harness.ts';

const KEY = 'sk-' + 'r'.repeat(40) + 'Rp7Q';
const PINNED = 'sk-' + 'p'.repeat(40) + 'Pn3Z';
const VENDOR = 'sk-ant-' + 'v'.repeat(40) + 'Vd9X';
const COOKIE = 'gwctl_session=' + 'c'.repeat(40);
const ADMIN = 'gwa_' + 'a'.repeat(40);
let upstream: FakeUpstream;
let proxy: FakeProxy;
const sandboxes: Sandbox[] = [];

before(async () => {
  [upstream, proxy] = await Promise.all([FakeUpstream.start(), FakeProxy.start('ok')]);
  let n = 0;
  upstream.handle((request) => {
    const id = { 'x-request-id': `req_gw${++n}`, 'request-id': `req_gw${n}` };
    if (request.path.split('?')[0] === '/v1/models' && request.headers.authorization === `Bearer ${KEY}`) return jsonReply(200, { object: 'list', data: [{ id: 'demo-chat' }] }, id);
    return jsonReply(401, { error: { message: 'Invalid API key (sk-…Pn3Z): it is unknown, incomplete or was deleted.', type: 'authentication_error', param: null, code: 'invalid_api_key' } }, id);
  });
  proxy.messagesReply = { status: 401, headers: { 'request-id': 'req_vendor_9' }, body: { type: 'error', error: { type: 'authentication_error', message: `invalid x-api-key ${PINNED}` } } };
});
after(async () => {
  await Promise.all([upstream?.close(), proxy?.close()]);
  for (const s of sandboxes) s.cleanup();
});

function machine(env: NodeJS.ProcessEnv): Sandbox {
  const s = makeSandbox({ GWCTL_BASE_URL: upstream.url, GWCTL_PROXY_URL: proxy.url, ...env });
  sandboxes.push(s);
  installFakeClient(s.bin, 'claude');
  s.env.GWCTL_SETTINGS_FILES = `~/.claude/settings.json:${s.project}/.claude/settings.json`;
  return s;
}

test('the bundle records versions, platform, settings with sources, checks, verdict and request ids, and no secret of the run', async () => {
  const s = machine({ ANTHROPIC_AUTH_TOKEN: KEY, ANTHROPIC_API_KEY: VENDOR, ANTHROPIC_BASE_URL: proxy.url, GWCTL_ADMIN_TOKEN: ADMIN, GWCTL_COOKIE: COOKIE });
  // A token pinned in a settings file wins over the shell: it is what the client sends.
  mkdirSync(join(s.home, '.claude'), { recursive: true });
  writeFileSync(join(s.home, '.claude', 'settings.json'), JSON.stringify({ env: { ANTHROPIC_AUTH_TOKEN: PINNED } }));
  const file = join(s.root, 'support.json');
  const run = await gwctlJson(['diagnose', '--status', '401', '--report', file], s.env);
  assert.equal(run.code, 1, run.err);
  assert.match(run.err, /support bundle written to .*support\.json/);
  const text = readFileSync(file, 'utf8');
  assert.equal(statSync(file).mode & 0o777, 0o600, 'only the user may read it');
  for (const secret of [KEY, PINNED, VENDOR, COOKIE, ADMIN, KEY.slice(3, 30), PINNED.slice(3, 30)]) assert.ok(!text.includes(secret), `the bundle carries a secret: ${secret.slice(0, 12)}…`);
  const bundle = JSON.parse(text);
  assert.equal(bundle.schemaVersion, 1);
  assert.equal(bundle.kind, 'gwctl-support-bundle');
  assert.ok(!Number.isNaN(Date.parse(bundle.createdAt)));
  assert.match(bundle.versions.gwctl, /^\d+\.\d+\.\d+/);
  assert.equal(bundle.versions.node, process.version);
  assert.equal(bundle.platform.os, process.platform);
  assert.equal(typeof bundle.executionPlane.observed, 'string');
  assert.equal(bundle.status, 401);
  const setting = (name: string) => bundle.settings.find((r: { name: string }) => r.name === name);
  assert.deepEqual(setting('baseUrl'), { name: 'baseUrl', value: upstream.url, source: 'env GWCTL_BASE_URL' });
  assert.deepEqual(setting('ANTHROPIC_AUTH_TOKEN'), { name: 'ANTHROPIC_AUTH_TOKEN', value: 'sk-…Pn3Z', source: 'pinned in ~/.claude/settings.json' });
  assert.equal(setting('ANTHROPIC_API_KEY').value, 'sk-…Vd9X');
  assert.equal(setting('CACHE_FIX_PROXY_UPSTREAM').source, 'shell');
  // The checks and the verdict exactly as diagnose --json prints them.
  assert.deepEqual(bundle.checks.map((c: { id: string }) => c.id), run.json.checks.map((c: { id: string }) => c.id));
  for (const check of bundle.checks) assert.deepEqual(Object.keys(check), ['id', 'status', 'cause', 'observed', 'remedy', 'commands']);
  assert.equal(bundle.verdict.cause, run.json.verdict.cause);
  assert.ok(bundle.requestIds.includes('req_vendor_9'), bundle.requestIds.join());
  assert.ok(bundle.requestIds.some((id: string) => /^req_gw\d+$/.test(id)), bundle.requestIds.join());
  assert.equal(new Set(bundle.requestIds).size, bundle.requestIds.length, 'each id once');
});

test('--report to a directory that does not exist is a usage error before anything runs', async () => {
  const s = machine({ ANTHROPIC_AUTH_TOKEN: KEY });
  const run = await gwctl(['diagnose', '--no-request', '--report', join(s.root, 'missing', 'support.json')], s.env);
  assert.equal(run.code, 2);
  assert.match(run.err, /the directory .*missing does not exist/);
  assert.equal(run.out, '');
});
