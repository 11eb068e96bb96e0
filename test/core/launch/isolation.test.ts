// A launch's own configuration per client: what of the user's configuration it carries over, what
// it sets for the gateway, that it never writes the user's files, and that the folder goes at exit.
import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { clientProfile } from '../../../core/config/client-profile.ts';
import { resolveSettings } from '../../../core/config/resolve-settings.ts';
import { codexArgs } from '../../../core/launch/isolation/codex-isolation.ts';
import { planIsolation, writeIsolation } from '../../../core/launch/isolation/prepare-isolation.ts';

const root = mkdtempSync(join(tmpdir(), 'gwctl-isolation-test-'));
after(() => rmSync(root, { recursive: true, force: true }));

function home(files: Record<string, string>): string {
  const dir = mkdtempSync(join(root, 'home-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

function profile(name: string, env: NodeJS.ProcessEnv) {
  const file = { path: '/none', get: () => undefined };
  return clientProfile(resolveSettings({ file, env: { GWCTL_CLIENT_PROFILE: name } }), env, '/w');
}

const files = (spec: { files: Array<{ path: string; content: string }> }) => Object.fromEntries(spec.files.map((f) => [f.path, f.content]));

test('claude: the user settings without the variables gwctl sets and the key helper; .claude.json and CLAUDE.md carried', () => {
  const h = home({
    '.claude/settings.json': JSON.stringify({ permissions: { allow: ['Bash(ls:*)'] }, apiKeyHelper: 'vendor-key', env: { ANTHROPIC_BASE_URL: 'https://elsewhere', KEEP_ME: '1' } }),
    '.claude.json': JSON.stringify({ mcpServers: { local: { command: 'x' } } }),
    '.claude/CLAUDE.md': 'instructions',
  });
  const env = { HOME: h };
  const { plan, spec } = planIsolation('claude', { profile: profile('claude', env), env, cwd: h, args: [], baseUrl: 'http://127.0.0.1:1', model: 'demo-chat' });
  const settings = JSON.parse(files(spec)['settings.json']!);
  assert.deepEqual(settings, { permissions: { allow: ['Bash(ls:*)'] }, env: { KEEP_ME: '1' } });
  assert.deepEqual(JSON.parse(files(spec)['.claude.json']!), { mcpServers: { local: { command: 'x' } } });
  assert.deepEqual(spec.links.map((l) => l.path), ['CLAUDE.md']);
  assert.deepEqual(plan.env, { CLAUDE_CONFIG_DIR: '{dir}' });
  assert.match(plan.carried.join('\n'), /without env\.ANTHROPIC_BASE_URL, apiKeyHelper/);

  const written = writeIsolation('claude', spec, root);
  assert.equal(written.env.CLAUDE_CONFIG_DIR, written.dir);
  assert.ok(lstatSync(join(written.dir, 'CLAUDE.md')).isSymbolicLink());
  assert.equal(lstatSync(join(written.dir, 'settings.json')).mode & 0o777, 0o600);
  written.cleanup();
  assert.ok(!existsSync(written.dir));
  assert.equal(readFileSync(join(h, '.claude/settings.json'), 'utf8').includes('elsewhere'), true, 'the user file is untouched');
});

test('codex: the user config.toml kept (MCP servers, policy) with gwctl provider in use; model and provider replaced', () => {
  const h = home({ '.codex/config.toml': 'model = "gpt-5"\nmodel_provider = "openai"\napproval_policy = "never"\n\n[mcp_servers.docs]\ncommand = "docs"\n' });
  const env = { HOME: h };
  const { spec } = planIsolation('codex', { profile: profile('codex', env), env, cwd: h, args: [], baseUrl: 'http://127.0.0.1:1/v1', model: 'demo-chat' });
  const toml = files(spec)['config.toml']!;
  assert.match(toml, /^model = "demo-chat"\nmodel_provider = "gwctl"\nweb_search = "disabled"\napproval_policy = "never"/);
  assert.ok(!toml.includes('gpt-5') && !toml.includes('"openai"'));
  assert.match(toml, /\[mcp_servers\.docs\]\ncommand = "docs"/);
  assert.match(toml, /\[model_providers\.gwctl\]\nname = "gwctl gateway"\nbase_url = "http:\/\/127\.0\.0\.1:1\/v1"\nenv_key = "MSGAPI_AUTH_TOKEN"\nwire_api = "responses"/);
  assert.deepEqual(codexArgs(['exec', 'hi'], false).args, ['exec', '--skip-git-repo-check', 'hi']);
  assert.deepEqual(codexArgs(['exec', 'hi'], true).args, ['exec', 'hi']);
  assert.deepEqual(codexArgs(['hi'], false).args, ['hi']);
});

test('gemini: gateway auth over the user settings (comments allowed); a one-shot in an untrusted folder is trusted for this launch only', () => {
  const h = home({ '.gemini/settings.json': '{\n  // mine\n  "mcpServers": {"a": {"command": "x"}},\n  "security": {"auth": {"selectedType": "oauth-personal"}},\n}\n', '.gemini/GEMINI.md': 'ctx' });
  const env = { HOME: h };
  const input = { profile: profile('gemini', env), env, cwd: join(h, 'work'), args: ['-p', 'hi'], baseUrl: 'http://127.0.0.1:1', model: 'demo-chat' };
  const { spec } = planIsolation('gemini', input);
  assert.deepEqual(JSON.parse(files(spec)['.gemini/settings.json']!), { mcpServers: { a: { command: 'x' } }, security: { auth: { selectedType: 'gemini-api-key' } } });
  assert.equal(files(spec)['.gemini/GEMINI.md'], 'ctx');
  assert.deepEqual(spec.env, { GEMINI_CLI_HOME: '{dir}', GEMINI_CLI_TRUST_WORKSPACE: 'true' });
  assert.deepEqual(planIsolation('gemini', { ...input, args: [] }).spec.env, { GEMINI_CLI_HOME: '{dir}' }, 'interactive: the CLI asks the user itself');
});

test('opencode: a provider file over the user config (which OpenCode reads itself); qwen: settings with the OpenAI auth type', () => {
  const h = home({ '.qwen/settings.json': JSON.stringify({ mcpServers: { b: { command: 'y' } } }) });
  const env = { HOME: h };
  const oc = planIsolation('opencode', { profile: profile('opencode', env), env, cwd: h, args: [], baseUrl: 'http://127.0.0.1:1/v1', model: 'demo-chat' });
  const config = JSON.parse(files(oc.spec)['opencode.json']!);
  assert.equal(config.model, 'gwctl/demo-chat');
  assert.deepEqual(config.provider.gwctl.options, { baseURL: 'http://127.0.0.1:1/v1', apiKey: '{env:MSGAPI_AUTH_TOKEN}' });
  assert.deepEqual(oc.spec.env, { OPENCODE_CONFIG: '{dir}/opencode.json' });
  const qw = planIsolation('qwen', { profile: profile('qwen', env), env, cwd: h, args: [], baseUrl: 'http://127.0.0.1:1/v1', model: 'demo-chat' });
  assert.deepEqual(JSON.parse(files(qw.spec)['settings.json']!), { mcpServers: { b: { command: 'y' } }, security: { auth: { selectedType: 'openai' } } });
});

test('two launches at once never share a folder, and removing one leaves the other', () => {
  const h = home({});
  const env = { HOME: h };
  const a = writeIsolation('codex', planIsolation('codex', { profile: profile('codex', env), env, cwd: h, args: [], baseUrl: 'http://127.0.0.1:1/v1', model: 'm' }).spec, root);
  const b = writeIsolation('gemini', planIsolation('gemini', { profile: profile('gemini', env), env, cwd: h, args: [], baseUrl: 'http://127.0.0.1:1', model: 'm' }).spec, root);
  const c = writeIsolation('codex', planIsolation('codex', { profile: profile('codex', env), env, cwd: h, args: [], baseUrl: 'http://127.0.0.1:2/v1', model: 'm' }).spec, root);
  assert.equal(new Set([a.dir, b.dir, c.dir]).size, 3);
  a.cleanup();
  assert.ok(!existsSync(a.dir) && existsSync(join(c.dir, 'config.toml')) && existsSync(join(b.dir, '.gemini', 'settings.json')));
  assert.match(readFileSync(join(c.dir, 'config.toml'), 'utf8'), /127\.0\.0\.1:2/);
  b.cleanup();
  c.cleanup();
});
