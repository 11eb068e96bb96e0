import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { loadGatewayFile, parseGatewayConfig } from '../../server/config/gateway-file.ts';
import { ConfigError } from '../../server/errors/config-error.ts';
import { buildProviders, ModelRouter } from '../../server/providers/model-router.ts';

const dir = mkdtempSync(join(tmpdir(), 'gwctl-config-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('YAML and JSON files give the same providers, with defaults filled in', () => {
  const yaml = join(dir, 'providers.yaml');
  writeFileSync(
    yaml,
    ['providers:', '  - name: up', '    type: openai', '    baseUrl: http://127.0.0.1:1/v1', '    apiKeyEnv: UP_KEY', '    models: [gpt-a, {name: big, upstreamModel: gpt-b}]', 'limits:', '  requestsPerMinute: 10'].join('\n'),
  );
  const json = join(dir, 'providers.json');
  writeFileSync(json, JSON.stringify({ providers: [{ name: 'up', type: 'openai', baseUrl: 'http://127.0.0.1:1/v1', apiKeyEnv: 'UP_KEY', models: ['gpt-a', { name: 'big', upstreamModel: 'gpt-b' }] }], limits: { requestsPerMinute: 10 } }));
  const a = loadGatewayFile(yaml);
  assert.deepEqual(a, loadGatewayFile(json));
  assert.equal(a.providers[0]!.timeoutMs, 120_000);
  assert.equal(a.providers[0]!.maxConnections, undefined, 'no cap on upstream connections unless set');
  assert.deepEqual(a.providers[0]!.models[1], { name: 'big', upstreamModel: 'gpt-b', kind: 'text' });
  assert.equal(a.limits.requestsPerMinute, 10);
});

const bad: Array<[string, unknown, RegExp]> = [
  ['inline secret', { providers: [{ name: 'x', type: 'openai', baseUrl: 'http://h/v1', apiKey: 'sk-live', models: ['m'] }] }, /providers\[0\]\.apiKey is an inline secret/],
  ['unknown type', { providers: [{ name: 'x', type: 'palm', models: ['m'] }] }, /providers\[0\]\.type must be one of/],
  ['a gemini baseUrl with a version', { providers: [{ name: 'x', type: 'gemini', baseUrl: 'https://g.example/v1beta', models: ['m'] }] }, /providers\[0\]\.baseUrl must be the API root without a version/],
  ['no base URL', { providers: [{ name: 'x', type: 'anthropic', models: ['m'] }] }, /baseUrl must be an http/],
  ['no models', { providers: [{ name: 'x', type: 'openai', baseUrl: 'http://h/v1' }] }, /models must be a non-empty list/],
  ['duplicate name', { providers: [{ name: 'd', type: 'demo' }, { name: 'd', type: 'demo' }] }, /"d" is used twice/],
  ['empty', {}, /providers must be a non-empty list/],
  ['zero connections', { providers: [{ name: 'x', type: 'openai', baseUrl: 'http://h/v1', models: ['m'], maxConnections: 0 }] }, /providers\[0\]\.maxConnections must be at least 1/],
  ['fractional connections', { providers: [{ name: 'x', type: 'openai', baseUrl: 'http://h/v1', models: ['m'], maxConnections: 1.5 }] }, /providers\[0\]\.maxConnections must be a whole number/],
  ['connections on the demo', { providers: [{ name: 'd', type: 'demo', maxConnections: 4 }] }, /providers\[0\]\.maxConnections applies to providers with a baseUrl only/],
  ['negative limit', { providers: [{ name: 'd', type: 'demo' }], limits: { requestsPerMinute: -1 } }, /limits\.requestsPerMinute must be a whole number/],
];
for (const [name, raw, message] of bad) {
  test(`refuses a providers file with ${name}, naming the field`, () => {
    assert.throws(() => parseGatewayConfig('p.yaml', raw), (error: ConfigError) => error instanceof ConfigError && message.test(error.message));
  });
}

test('unreadable and unparsable files are config errors, not crashes', () => {
  assert.throws(() => loadGatewayFile(join(dir, 'missing.yaml')), /Cannot read the providers file/);
  const broken = join(dir, 'broken.yaml');
  writeFileSync(broken, 'providers: [unclosed');
  assert.throws(() => loadGatewayFile(broken), /not valid YAML or JSON/);
});

test('a provider whose key variable is unset stops the start with the variable named', () => {
  const config = parseGatewayConfig('p', { providers: [{ name: 'up', type: 'anthropic', baseUrl: 'http://h', apiKeyEnv: 'MISSING_KEY', models: ['c'] }] });
  assert.throws(() => buildProviders(config.providers, {}), /\$MISSING_KEY, which is not set/);
  const providers = buildProviders(config.providers, { MISSING_KEY: 'set' });
  const router = new ModelRouter(providers);
  assert.equal(router.resolve('c')?.provider.name, 'up');
  assert.equal(router.resolve('nope'), undefined);
  void router.close();
});
