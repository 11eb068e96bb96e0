// Layers default < file < env < flag, with the source of every value; owner-only file; bad values named.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { clientProfile } from '../../../core/config/client-profile.ts';
import { resolveSettings } from '../../../core/config/resolve-settings.ts';
import { serviceAddress } from '../../../core/config/service-address.ts';
import { SettingError } from '../../../core/config/setting-error.ts';
import { SettingsFile } from '../../../core/config/settings-file.ts';

const root = mkdtempSync(join(tmpdir(), 'gwctl-config-'));
after(() => rmSync(root, { recursive: true, force: true }));
const env = { HOME: join(root, 'home'), XDG_CONFIG_HOME: join(root, 'home', '.config') };

test('defaults, then the file, then env, then flags, each with its source', () => {
  const file = new SettingsFile(env);
  assert.equal(file.exists(), false);
  const defaults = resolveSettings({ file, env });
  assert.equal(file.exists(), false, 'reading never creates the file');
  assert.deepEqual(defaults.proxyUrl, { key: 'proxyUrl', value: 'http://127.0.0.1:9801', source: 'default', origin: null });
  assert.equal(defaults.baseUrl.value, null);
  assert.deepEqual(defaults['client.profile'], { key: 'client.profile', value: 'claude', source: 'default', origin: null });
  assert.deepEqual(defaults['client.tokenVar'], { key: 'client.tokenVar', value: 'ANTHROPIC_AUTH_TOKEN', source: 'profile', origin: 'claude' });

  file.set('baseUrl', 'https://gw.example.com/');
  file.set('client.command', 'my-client');
  assert.equal((statSync(file.path).mode & 0o777).toString(8), '600');
  assert.equal((statSync(file.dir).mode & 0o777).toString(8), '700');
  const fromFile = resolveSettings({ file, env });
  assert.equal(fromFile.baseUrl.source, 'file');
  assert.equal(fromFile.baseUrl.origin, file.path);
  assert.equal(fromFile['client.command'].value, 'my-client');

  const fromEnv = resolveSettings({ file, env: { ...env, GWCTL_BASE_URL: 'https://env.example.com', GWCTL_SETTINGS_FILES: '/a.json:/b.json' } });
  assert.deepEqual([fromEnv.baseUrl.value, fromEnv.baseUrl.source, fromEnv.baseUrl.origin], ['https://env.example.com', 'env', 'GWCTL_BASE_URL']);
  assert.deepEqual(fromEnv['client.settingsFiles'].value, ['/a.json', '/b.json']);

  const fromFlag = resolveSettings({ file, env: { ...env, GWCTL_BASE_URL: 'https://env.example.com' }, flags: { baseUrl: 'https://flag.example.com' } });
  assert.deepEqual([fromFlag.baseUrl.value, fromFlag.baseUrl.source, fromFlag.baseUrl.origin], ['https://flag.example.com', 'flag', '--base-url']);

  file.unset('client.command');
  assert.equal(resolveSettings({ file, env })['client.command'].source, 'profile');
});

test('profiles supply the client defaults; an explicit variable-name setting wins over the profile', () => {
  const file = new SettingsFile({ HOME: join(root, 'prof'), XDG_CONFIG_HOME: join(root, 'prof') });
  const claude = resolveSettings({ file, env: {} });
  assert.deepEqual(
    ['client.command', 'client.baseUrlVar', 'client.tokenVar', 'client.apiKeyVar', 'client.modelVar'].map((k) => claude[k as 'client.command'].value),
    ['claude', 'ANTHROPIC_BASE_URL', 'ANTHROPIC_AUTH_TOKEN', 'ANTHROPIC_API_KEY', 'ANTHROPIC_MODEL'],
  );
  assert.deepEqual(claude['client.backgroundModelVars'].value, ['ANTHROPIC_DEFAULT_HAIKU_MODEL', 'ANTHROPIC_DEFAULT_SONNET_MODEL', 'ANTHROPIC_DEFAULT_OPUS_MODEL']);
  assert.equal(claude['client.model'].value, null, 'automatic unless set');

  const custom = resolveSettings({ file, env: { GWCTL_CLIENT_PROFILE: 'custom', GWCTL_TOKEN_VAR: 'MY_TOKEN' }, flags: { 'client.command': 'my-client' } });
  assert.deepEqual(custom['client.profile'], { key: 'client.profile', value: 'custom', source: 'env', origin: 'GWCTL_CLIENT_PROFILE' });
  assert.deepEqual([custom['client.baseUrlVar'].value, custom['client.baseUrlVar'].source, custom['client.baseUrlVar'].origin], ['MSGAPI_BASE_URL', 'profile', 'custom']);
  assert.deepEqual([custom['client.tokenVar'].value, custom['client.tokenVar'].source], ['MY_TOKEN', 'env'], 'the explicit setting wins over the profile');
  assert.deepEqual([custom['client.modelVar'].value, custom['client.backgroundModelVars'].value, custom['client.settingsFiles'].value], ['MSGAPI_MODEL', [], []]);
  const profile = clientProfile(custom, {}, '/w');
  assert.deepEqual([profile.name, profile.command, profile.tokenSources, profile.apiKeySources, profile.ownModelPrefix], ['custom', 'my-client', ['MY_TOKEN', 'MSGAPI_AUTH_TOKEN'], ['MSGAPI_API_KEY'], null]);

  // The custom profile knows no client: without client.command the profile cannot be used.
  const noCommand = resolveSettings({ file, env: { GWCTL_CLIENT_PROFILE: 'custom' } });
  assert.equal(noCommand['client.command'].value, null);
  assert.throws(() => clientProfile(noCommand, {}, '/w'), (e: unknown) => e instanceof SettingError && /client\.command is not set/.test(e.message) && /gwctl config set client\.command/.test(e.remedy ?? ''));
  assert.throws(() => resolveSettings({ file, env: { GWCTL_CLIENT_PROFILE: 'cline' } }), /must be one of claude, codex, gemini, opencode, qwen, custom/);
  // Every named client has its own variables; a vendor-named key variable is looked at after the neutral name.
  const qwen = clientProfile(resolveSettings({ file, env: { GWCTL_CLIENT_PROFILE: 'qwen' } }), {}, '/w');
  assert.deepEqual([qwen.command, qwen.protocol, qwen.basePath, qwen.baseUrlVar, qwen.tokenSources, qwen.isolation], ['qwen', 'chat', '/v1', 'OPENAI_BASE_URL', ['MSGAPI_AUTH_TOKEN', 'OPENAI_API_KEY'], 'qwen']);
  const codex = clientProfile(resolveSettings({ file, env: { GWCTL_CLIENT_PROFILE: 'codex' } }), {}, '/w');
  assert.deepEqual([codex.protocol, codex.tokenSources, codex.modelPick], ['responses', ['MSGAPI_AUTH_TOKEN'], 'always']);
  assert.deepEqual(resolveSettings({ file, env: { GWCTL_BACKGROUND_MODEL_VARS: 'A_MODEL, B_MODEL' } })['client.backgroundModelVars'].value, ['A_MODEL', 'B_MODEL']);
  assert.throws(() => resolveSettings({ file, env: { GWCTL_BACKGROUND_MODEL_VARS: 'A-MODEL' } }), /not an environment variable name/);
});

test('invalid values are refused with where they came from', () => {
  const file = new SettingsFile(env);
  assert.throws(() => resolveSettings({ file, env: { ...env, GWCTL_PROXY_URL: 'ftp://x' } }), (e: unknown) => e instanceof SettingError && /GWCTL_PROXY_URL/.test(e.message));
  assert.throws(() => resolveSettings({ file, env, flags: { 'client.tokenVar': 'not a name' } }), /--token-var is not an environment variable name/);
  assert.throws(() => resolveSettings({ file, env, flags: { 'client.auth': 'magic' } }), /must be one of service, vendor, oauth/);
  assert.throws(() => resolveSettings({ file, env, flags: { baseUrl: 'https://user:pw@gw.example.com' } }), /credentials/);
  const broken = { HOME: join(root, 'broken'), XDG_CONFIG_HOME: join(root, 'broken') };
  mkdirSync(join(root, 'broken', 'gwctl'), { recursive: true });
  writeFileSync(join(root, 'broken', 'gwctl', 'config.json'), '{ not json');
  assert.throws(() => resolveSettings({ file: new SettingsFile(broken), env: broken }), (e: unknown) => e instanceof SettingError && /Cannot read/.test(e.message));
  assert.ok(existsSync(join(root, 'broken', 'gwctl', 'config.json')), 'a broken file is left alone');
});

test('the client profile expands ~, $CLAUDE_CONFIG_DIR and relative paths; the service root drops /v1', () => {
  const file = new SettingsFile({ HOME: join(root, 'p'), XDG_CONFIG_HOME: join(root, 'p') });
  const penv = { HOME: '/home/u' };
  const settings = resolveSettings({ file, env: penv, flags: { baseUrl: 'https://gw.example.com/v1' } });
  assert.deepEqual(clientProfile(settings, penv, '/work/proj').settingsFiles, ['/home/u/.claude/settings.json', '/work/proj/.claude/settings.json', '/work/proj/.claude/settings.local.json']);
  const withDir = clientProfile(settings, { ...penv, CLAUDE_CONFIG_DIR: '/cfg' }, '/work/proj').settingsFiles;
  assert.deepEqual(withDir.slice(3), ['/cfg/settings.json', '/cfg/settings.local.json']);
  assert.deepEqual(serviceAddress(settings), { root: 'https://gw.example.com', hadV1: true, origin: '--base-url' });
  assert.throws(() => serviceAddress(resolveSettings({ file, env: penv })), /baseUrl is not set/);
});
