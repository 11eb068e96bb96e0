// gwctl config client --type responses: the settings of a Responses-API client, with the Codex CLI
// provider block for its config.toml (wire_api = "responses", the key read from a variable named by
// env_key, never written into the file).
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { gwctl, gwctlJson, makeSandbox } from './gwctl-harness.ts';

const s = makeSandbox();
after(() => s.cleanup());
const KEY = 'sk-' + 'r'.repeat(44) + 'Rr12';

test('config client --type responses: base URL with /v1, a Codex provider block that takes the key from a variable', async () => {
  const env = { ...s.env, GWCTL_BASE_URL: 'https://gw.example.com/v1', MSGAPI_AUTH_TOKEN: KEY };
  const text = await gwctl(['config', 'client', '--type', 'responses'], env);
  assert.equal(text.code, 0, text.err);
  assert.match(text.out, /Responses-API client/);
  assert.match(text.out, /Base URL\s+https:\/\/gw\.example\.com\/v1\s+\(must end with \/v1: the client appends \/responses\)/);
  assert.match(text.out, /Codex CLI\s+~\/\.codex\/config\.toml/);
  assert.match(text.out, /^ {4}\[model_providers\.gwctl\]$/m);
  assert.match(text.out, /^ {4}wire_api = "responses"$/m);
  assert.match(text.out, /^ {4}env_key = "MSGAPI_AUTH_TOKEN"/m);
  assert.ok(!text.out.includes(KEY), 'the key itself is never printed');

  const json = await gwctlJson(['config', 'client', '--type', 'responses', '--key-ref', 'env'], { ...env, GWCTL_CLIENT_MODEL: 'demo-chat' });
  const [entry] = json.json.clients;
  assert.equal(entry.type, 'responses');
  assert.equal(entry.apiKey, '${MSGAPI_AUTH_TOKEN}');
  const toml: string = entry.files[0].text;
  // The top-level keys come before the provider's table, as TOML requires.
  assert.ok(toml.indexOf('model = "demo-chat"') < toml.indexOf('[model_providers.gwctl]'));
  assert.match(toml, /^model_provider = "gwctl"$/m);
  assert.match(toml, /^base_url = "https:\/\/gw\.example\.com\/v1"$/m);
  assert.match(toml, /^web_search = "disabled"/m);

  const all = await gwctlJson(['config', 'client'], { ...env, GWCTL_IMAGE_BASE_URL: 'https://img.example.com' });
  assert.deepEqual(all.json.clients.map((c: { type: string }) => c.type), ['chat', 'messages', 'responses', 'images']);
});
