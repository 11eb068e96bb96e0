// The client's environment under a profile: exactly one credential variable (the one the client
// reads, filled from its own name or the neutral MSGAPI_* one), the route address, and the model in
// the client's model variables; and the choice of that model from what the gateway serves.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clientProfile } from '../../../core/config/client-profile.ts';
import { resolveSettings } from '../../../core/config/resolve-settings.ts';
import type { SettingKey } from '../../../core/config/setting-definitions.ts';
import { findCredential } from '../../../core/launch/client-credential.ts';
import { buildClientEnv } from '../../../core/launch/client-env.ts';
import { chooseModel, needsModelList } from '../../../core/launch/model-choice.ts';

const noFile = { get: () => undefined, path: '/nonexistent/config.json' };
function profile(flags: Partial<Record<SettingKey, unknown>> = {}, env: NodeJS.ProcessEnv = {}) {
  return clientProfile(resolveSettings({ file: noFile, env, flags }), env, '/w');
}
const proxy = { kind: 'proxy' as const, baseUrl: 'http://127.0.0.1:9801' };
const KEY = 'sk-tokentokentokenAb12';

test('claude profile: the key kept in MSGAPI_AUTH_TOKEN reaches the client as ANTHROPIC_AUTH_TOKEN, and nothing else does', () => {
  const shell = { PATH: '/bin', MSGAPI_AUTH_TOKEN: KEY, MSGAPI_API_KEY: 'sk-vendorvendorvendor', ANTHROPIC_API_KEY: 'sk-other-vendor-key', ANTHROPIC_BASE_URL: 'http://old', HTTPS_PROXY: 'http://corp:3128' };
  const p = profile();
  assert.deepEqual(findCredential(p, shell), { clientVar: 'ANTHROPIC_AUTH_TOKEN', sources: ['ANTHROPIC_AUTH_TOKEN', 'MSGAPI_AUTH_TOKEN'], foundIn: 'MSGAPI_AUTH_TOKEN', value: KEY });
  const { env, shown } = buildClientEnv(shell, p, proxy);
  assert.equal(env.ANTHROPIC_BASE_URL, 'http://127.0.0.1:9801');
  assert.equal(env.ANTHROPIC_AUTH_TOKEN, KEY);
  for (const gone of ['MSGAPI_AUTH_TOKEN', 'MSGAPI_API_KEY', 'ANTHROPIC_API_KEY']) assert.equal(gone in env, false, gone);
  assert.equal(env.NO_PROXY, '127.0.0.1,localhost');
  assert.deepEqual(shown, {
    ANTHROPIC_BASE_URL: 'http://127.0.0.1:9801',
    ANTHROPIC_AUTH_TOKEN: 'sk-…Ab12',
    ANTHROPIC_API_KEY: null,
    MSGAPI_AUTH_TOKEN: null,
    MSGAPI_API_KEY: null,
    NO_PROXY: '127.0.0.1,localhost',
  });
  assert.ok(!JSON.stringify(shown).includes(KEY));
});

test('the client variable wins over the neutral name; the vendor path keeps only the API key variable', () => {
  const shell = { ANTHROPIC_AUTH_TOKEN: KEY, MSGAPI_AUTH_TOKEN: 'sk-neutral-neutral-0000', ANTHROPIC_API_KEY: 'sk-vendor-vendor-1111' };
  assert.equal(buildClientEnv(shell, profile(), proxy).env.ANTHROPIC_AUTH_TOKEN, KEY);
  const vendor = buildClientEnv({ MSGAPI_API_KEY: 'sk-vendor-in-neutral-2222', ANTHROPIC_AUTH_TOKEN: KEY }, profile({ 'client.auth': 'vendor' }), { kind: 'direct', baseUrl: null });
  assert.equal(vendor.env.ANTHROPIC_API_KEY, 'sk-vendor-in-neutral-2222');
  assert.equal('ANTHROPIC_AUTH_TOKEN' in vendor.env, false);
  assert.equal('ANTHROPIC_BASE_URL' in vendor.env, false, "the vendor path keeps the client's own default address");
  const oauth = buildClientEnv(shell, profile({ 'client.auth': 'oauth' }), { kind: 'direct', baseUrl: null });
  assert.equal(['ANTHROPIC_AUTH_TOKEN', 'ANTHROPIC_API_KEY', 'MSGAPI_AUTH_TOKEN'].some((v) => v in oauth.env), false);
});

test('custom profile: every variable name is a setting, defaulting to the neutral names', () => {
  const p = profile({ 'client.profile': 'custom', 'client.command': 'my-client', 'client.baseUrlVar': 'MY_BASE' });
  const { env } = buildClientEnv({ MSGAPI_AUTH_TOKEN: KEY }, p, proxy);
  assert.deepEqual([env.MY_BASE, env.MSGAPI_AUTH_TOKEN, env.MSGAPI_BASE_URL], ['http://127.0.0.1:9801', KEY, undefined]);
});

test('automatic model: a served text model when the gateway lists none of the client own; set in every model variable', () => {
  const p = profile();
  assert.equal(needsModelList(p, {}), true);
  const auto = chooseModel({ profile: p, env: {}, list: { ids: ['demo-image', 'demo-chat', 'other-chat'] } });
  assert.deepEqual([auto.id, auto.source], ['demo-chat', 'automatic']);
  assert.match(auto.reason, /lists no claude-… model/);
  assert.match(auto.override, /gwctl config set client\.model/);
  assert.deepEqual(auto.variables, ['ANTHROPIC_MODEL', 'ANTHROPIC_DEFAULT_HAIKU_MODEL', 'ANTHROPIC_DEFAULT_SONNET_MODEL', 'ANTHROPIC_DEFAULT_OPUS_MODEL']);
  const { env, shown } = buildClientEnv({ ANTHROPIC_AUTH_TOKEN: KEY }, p, proxy, auto);
  assert.deepEqual([env.ANTHROPIC_MODEL, env.ANTHROPIC_DEFAULT_HAIKU_MODEL, shown.ANTHROPIC_DEFAULT_OPUS_MODEL], ['demo-chat', 'demo-chat', 'demo-chat']);

  const own = chooseModel({ profile: p, env: {}, list: { ids: ['claude-opus-4-8', 'demo-chat'] } });
  assert.deepEqual([own.id, own.source, own.variables], [null, 'none', []], "the client's default is served: left alone");
  const kin = chooseModel({ profile: p, env: {}, list: { ids: ['demo-chat', 'claude-via-chat'] } });
  assert.deepEqual([kin.id, kin.source], ['claude-via-chat', 'automatic'], "the default is not served: a served model of the client's kind is set");
  assert.match(kin.reason, /does not serve claude-opus-4-8, the model the client asks for by itself/);
  const images = chooseModel({ profile: p, env: {}, list: { ids: ['demo-image'] } });
  assert.deepEqual([images.id, images.warning?.cause], [null, 'MODEL_NOT_AVAILABLE'], 'never an image model');
  const failed = chooseModel({ profile: p, env: {}, list: { problem: { cause: 'KEY_REJECTED', observed: 'GET … → 401' } } });
  assert.deepEqual([failed.id, failed.warning?.cause], [null, 'KEY_REJECTED']);
});

test('a chosen model wins: the setting over the shell variable over automatic; background variables set in the shell stay', () => {
  const setting = chooseModel({ profile: profile({ 'client.model': 'big-model' }), env: { ANTHROPIC_MODEL: 'shell-model', ANTHROPIC_DEFAULT_HAIKU_MODEL: 'small' } });
  assert.deepEqual([setting.id, setting.source], ['big-model', 'setting']);
  assert.match(setting.reason, /client\.model \(from --model\)/);
  assert.deepEqual(setting.variables, ['ANTHROPIC_MODEL', 'ANTHROPIC_DEFAULT_SONNET_MODEL', 'ANTHROPIC_DEFAULT_OPUS_MODEL']);
  const shell = chooseModel({ profile: profile(), env: { ANTHROPIC_MODEL: 'shell-model' } });
  assert.deepEqual([shell.id, shell.source, shell.variables], ['shell-model', 'shell', []]);
  assert.equal(needsModelList(profile(), { ANTHROPIC_MODEL: 'x' }), false);
  const custom = chooseModel({ profile: profile({ 'client.profile': 'custom', 'client.command': 'c' }), env: {} });
  assert.deepEqual([custom.id, custom.source], [null, 'none']);
  assert.match(custom.reason, /does not know which models the client asks for/);
});

test('every profile: vendor credentials from the shell are removed and named; a vendor-named client variable gets the gateway key from MSGAPI_AUTH_TOKEN', () => {
  const shell = { PATH: '/bin', MSGAPI_AUTH_TOKEN: KEY, OPENAI_API_KEY: 'sk-openai-vendor-key', GEMINI_API_KEY: 'gm-vendor', GOOGLE_API_KEY: 'g-vendor', ANTHROPIC_API_KEY: 'sk-ant-vendor' };
  const direct = (base: string) => ({ kind: 'direct' as const, baseUrl: base });
  const qwen = buildClientEnv(shell, profile({ 'client.profile': 'qwen' }), direct('http://gw/v1'));
  assert.equal(qwen.env.OPENAI_API_KEY, KEY, 'the neutral name wins over a vendor-named variable');
  assert.equal(qwen.env.OPENAI_BASE_URL, 'http://gw/v1');
  for (const gone of ['GEMINI_API_KEY', 'GOOGLE_API_KEY', 'ANTHROPIC_API_KEY', 'MSGAPI_AUTH_TOKEN']) assert.equal(gone in qwen.env, false, gone);
  assert.deepEqual(qwen.stripped.sort(), ['ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY', 'OPENAI_API_KEY']);
  const gemini = buildClientEnv(shell, profile({ 'client.profile': 'gemini' }), direct('http://gw'));
  assert.equal(gemini.env.GEMINI_API_KEY, KEY);
  assert.equal('OPENAI_API_KEY' in gemini.env, false);
  const codex = buildClientEnv(shell, profile({ 'client.profile': 'codex' }), direct('http://gw/v1'));
  assert.equal(codex.env.MSGAPI_AUTH_TOKEN, KEY, 'Codex reads the key through env_key = MSGAPI_AUTH_TOKEN');
  assert.deepEqual(codex.stripped.sort(), ['ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY', 'OPENAI_API_KEY']);
});

test('a client whose configuration must name a model gets the first served text model, its own kind first', () => {
  const codex = profile({ 'client.profile': 'codex' });
  assert.equal(needsModelList(codex, {}), true);
  assert.equal(chooseModel({ profile: codex, env: {}, list: { ids: ['demo-image', 'demo-chat'] } }).id, 'demo-chat');
  assert.equal(chooseModel({ profile: codex, env: {}, list: { ids: ['demo-chat', 'gpt-5'] } }).id, 'gpt-5');
  const gemini = profile({ 'client.profile': 'gemini' });
  assert.equal(chooseModel({ profile: gemini, env: {}, list: { ids: ['demo-chat', 'gemini-2.5-pro'] } }).id, 'gemini-2.5-pro');
});
