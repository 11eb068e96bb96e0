// gwctl config: layered values with their source, owner-only storage, keys refused, client settings.
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { after, test } from 'node:test';
import { gwctl, gwctlJson, makeSandbox } from './gwctl-harness.ts';

const s = makeSandbox();
after(() => s.cleanup());
const KEY = 'sk-' + 'c'.repeat(44) + 'Cc12';

test('path, set, get, list, unset; sources default < file < env < flag', async () => {
  const path = await gwctlJson(['config', 'path'], s.env);
  assert.deepEqual(path.json, { path: `${s.home}/.config/gwctl/config.json`, exists: false });
  const set = await gwctl(['config', 'set', 'baseUrl', 'https://gw.example.com/'], s.env);
  assert.equal(set.code, 0, set.err);
  assert.equal(statSync(path.json.path).mode & 0o777, 0o600);
  assert.equal(statSync(`${s.home}/.config/gwctl`).mode & 0o777, 0o700);
  const get = await gwctl(['config', 'get', 'baseUrl'], s.env);
  assert.equal(get.out, 'https://gw.example.com\n');
  assert.match(get.err, /# from file \(.*config\.json\)/);
  assert.equal((await gwctl(['config', 'set', 'client.settingsFiles', '["~/a.json", ".claude/b.json"]'], s.env)).code, 0);

  const list = await gwctlJson(['config', 'list', '--proxy-url', 'http://127.0.0.1:9999'], { ...s.env, GWCTL_CLIENT: 'my-claude' });
  const by = Object.fromEntries(list.json.settings.map((e: { key: string }) => [e.key, e]));
  assert.deepEqual(by.baseUrl, { key: 'baseUrl', value: 'https://gw.example.com', source: 'file', origin: path.json.path });
  assert.deepEqual(by['client.command'], { key: 'client.command', value: 'my-claude', source: 'env', origin: 'GWCTL_CLIENT' });
  assert.deepEqual(by.proxyUrl, { key: 'proxyUrl', value: 'http://127.0.0.1:9999', source: 'flag', origin: '--proxy-url' });
  assert.deepEqual(by['client.tokenVar'], { key: 'client.tokenVar', value: 'ANTHROPIC_AUTH_TOKEN', source: 'profile', origin: 'claude' });
  assert.deepEqual(list.json.start.profile, { name: 'claude', describe: 'Claude Code CLI (command claude)', source: 'default', origin: null });
  assert.deepEqual(by['client.settingsFiles'].value, ['~/a.json', '.claude/b.json']);
  const table = await gwctl(['config', 'list'], s.env);
  assert.match(table.out, /^KEY\s+VALUE\s+SOURCE\n/);
  assert.match(table.out, /baseUrl\s+https:\/\/gw\.example\.com\s+file \(~\/\.config\/gwctl\/config\.json\)/);
  assert.match(table.out, /proxyUrl\s+http:\/\/127\.0\.0\.1:9801\s+default/);
  assert.match(table.out, /client\.tokenVar\s+ANTHROPIC_AUTH_TOKEN\s+profile claude/);

  assert.equal((await gwctl(['config', 'unset', 'client.settingsFiles'], s.env)).code, 0);
  assert.equal((await gwctlJson(['config', 'get', 'client.settingsFiles'], s.env)).json.source, 'profile');
  const unsetValue = await gwctl(['config', 'get', 'imageBaseUrl'], s.env);
  assert.equal(unsetValue.code, 1);
  assert.match(unsetValue.err, /imageBaseUrl is not set/);
});

test('config list shows the active profile and exactly which variables gwctl start sets', async () => {
  const env = { ...s.env, MSGAPI_AUTH_TOKEN: KEY, GWCTL_BASE_URL: 'https://gw.example.com' };
  const list = await gwctl(['config', 'list'], env);
  assert.equal(list.code, 0, list.err);
  assert.match(list.out, /Client profile: claude \(the default\): Claude Code CLI \(command claude\)\ngwctl start runs claude with:/);
  assert.match(list.out, /ANTHROPIC_BASE_URL\s+http:\/\/127\.0\.0\.1:9801 \| https:\/\/gw\.example\.com\s+the proxy when/);
  assert.match(list.out, /ANTHROPIC_AUTH_TOKEN\s+the key from ANTHROPIC_AUTH_TOKEN, else MSGAPI_AUTH_TOKEN\s+now from MSGAPI_AUTH_TOKEN \(sk-…Cc12\); the only credential the client gets/);
  assert.match(list.out, /ANTHROPIC_API_KEY\s+removed/);
  assert.match(list.out, /MSGAPI_AUTH_TOKEN\s+removed/);
  assert.match(list.out, /ANTHROPIC_MODEL\s+automatic\s+a model the gateway serves \(claude-… first, never an image model\), when it does not serve claude-opus-4-8/);
  assert.match(list.out, /ANTHROPIC_DEFAULT_HAIKU_MODEL\s+automatic\s+same as ANTHROPIC_MODEL/);
  assert.ok(!list.out.includes(KEY));
  const chosen = await gwctlJson(['config', 'list', '--model', 'demo-chat'], env);
  const vars = Object.fromEntries(chosen.json.start.variables.map((v: { name: string; value: string }) => [v.name, v.value]));
  assert.equal(vars.ANTHROPIC_MODEL, 'demo-chat');
  assert.equal(vars.ANTHROPIC_DEFAULT_OPUS_MODEL, 'demo-chat');

  const custom = await gwctlJson(['config', 'list', '--profile', 'custom', '--client', 'my-client'], env);
  assert.deepEqual(custom.json.start.variables.slice(0, 2).map((v: { name: string }) => v.name), ['MSGAPI_BASE_URL', 'MSGAPI_AUTH_TOKEN']);
  const noClient = await gwctl(['config', 'list', '--profile', 'custom'], env);
  assert.equal(noClient.code, 0);
  assert.match(noClient.out, /Client profile: custom \(flag --profile\)[\s\S]*client\.command is not set, and the custom profile names no client/);
});

test('bad input exits 2 with a clear message; keys are never stored', async () => {
  const secret = await gwctl(['config', 'set', 'client.command', `claude --key ${KEY}`], s.env);
  assert.equal(secret.code, 2);
  assert.match(secret.err, /looks like an API key; gwctl does not store keys/);
  assert.ok(!secret.err.includes(KEY));
  const unknown = await gwctl(['config', 'set', 'apiKey', 'x'], s.env);
  assert.equal(unknown.code, 2);
  assert.match(unknown.err, /Unknown setting "apiKey"[\s\S]*baseUrl, imageBaseUrl, proxyUrl/);
  const badUrl = await gwctl(['config', 'set', 'proxyUrl', 'localhost:9801'], s.env);
  assert.equal(badUrl.code, 2);
  assert.match(badUrl.err, /proxyUrl must be an http\(s\) URL|proxyUrl is not a URL/);
  assert.equal((await gwctl(['config', 'set', 'client.tokenVar', 'MY-TOKEN'], s.env)).code, 2);
  assert.equal((await gwctl(['config', 'get', 'nope'], s.env)).code, 2);
  const badEnv = await gwctl(['config', 'list'], { ...s.env, GWCTL_AUTH: 'magic' });
  assert.equal(badEnv.code, 2);
  assert.match(badEnv.err, /GWCTL_AUTH \(environment\) must be one of service, vendor, oauth/);
});

test('config client: base URL per client type, the key only as a placeholder or reference', async () => {
  const env = { ...s.env, GWCTL_BASE_URL: 'https://gw.example.com/v1', GWCTL_IMAGE_BASE_URL: 'https://img.example.com', MSGAPI_AUTH_TOKEN: KEY };
  const all = await gwctlJson(['config', 'client'], env);
  const by = Object.fromEntries(all.json.clients.map((c: { type: string }) => [c.type, c]));
  assert.equal(by.chat.baseUrl, 'https://gw.example.com/v1');
  assert.equal(by.messages.baseUrl, 'https://gw.example.com');
  assert.equal(by.images.baseUrl, 'https://img.example.com/v1');
  assert.equal(by.chat.apiKey, '<API_KEY>');
  assert.deepEqual(by.messages.env, { ANTHROPIC_BASE_URL: 'https://gw.example.com', ANTHROPIC_AUTH_TOKEN: '<API_KEY>' });
  assert.match(all.json.notes[0], /baseUrl ends with \/v1/);
  const ref = await gwctl(['config', 'client', '--type', 'chat', '--key-ref', 'env'], env);
  assert.match(ref.out, /API key\s+\$\{ANTHROPIC_AUTH_TOKEN\}/);
  assert.ok(!all.out.includes(KEY) && !ref.out.includes(KEY));
  const noImage = await gwctl(['config', 'client', '--type', 'images'], { ...env, GWCTL_IMAGE_BASE_URL: '' });
  assert.equal(noImage.code, 2);
  assert.match(noImage.err, /imageBaseUrl is not set/);
  assert.equal((await gwctl(['config', 'client', '--type', 'grpc'], env)).code, 2);
});

/** yargs prints help with console.log, outside the CLI's own output functions. */
async function help(command: string[]): Promise<{ code: number; text: string }> {
  const lines: string[] = [];
  const original = console.log;
  console.log = (...parts: unknown[]) => void lines.push(parts.join(' '));
  try {
    const run = await gwctl([...command, '--help'], s.env);
    return { code: run.code, text: lines.join('\n') + run.out };
  } finally {
    console.log = original;
  }
}

test('--help works on every new command and subcommand', async () => {
  for (const command of [['config'], ['config', 'get'], ['config', 'set'], ['config', 'unset'], ['config', 'list'], ['config', 'path'], ['config', 'client'], ['verify'], ['start'], ['diagnose'], ['explain']]) {
    const shown = await help(command);
    assert.equal(shown.code, 0, command.join(' '));
    assert.match(shown.text, /--help/, command.join(' '));
  }
  const start = await help(['start']);
  assert.match(start.text, /--dry-run[\s\S]*--restore[\s\S]*--json/);
  assert.match(start.text, /-- client arguments/);
  assert.match((await help(['diagnose'])).text, /--status[\s\S]*400,[\s\S]*413,[\s\S]*529/);
  assert.match((await help(['diagnose'])).text, /--request[\s\S]*may cost a few[\s\S]*--no-request/);
  assert.match(start.text, /--profile[\s\S]*--model/);
  assert.equal((await gwctl(['config'], s.env)).code, 2);
});
