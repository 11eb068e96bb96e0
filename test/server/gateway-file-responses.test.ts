// The providers-file settings for the Responses API and embeddings: `responsesApi` on an openai
// provider (Responses clients pass through, stored responses are asked there), `kind: embedding`
// models, and the errors that name a wrong value.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseGatewayConfig } from '../../server/config/gateway-file.ts';
import { ConfigError } from '../../server/errors/config-error.ts';
import { buildProviders, ModelRouter } from '../../server/providers/model-router.ts';
import { adaptationFor } from '../../server/protocols/translation.ts';

test('responsesApi makes an openai provider serve Responses natively; without it Responses go through translation', () => {
  const config = parseGatewayConfig('p.json', {
    providers: [
      { name: 'native', type: 'openai', baseUrl: 'http://127.0.0.1:1/v1', responsesApi: true, models: ['gpt-r', { name: 'emb', kind: 'embedding' }] },
      { name: 'chat', type: 'openai', baseUrl: 'http://127.0.0.1:2/v1', models: ['gpt-c'] },
      { name: 'msgs', type: 'anthropic', baseUrl: 'http://127.0.0.1:3', models: ['claude-c'] },
    ],
  });
  assert.deepEqual(config.providers.map((p) => p.responsesApi), [true, false, false]);
  const providers = buildProviders(config.providers, {});
  const [native, chat, msgs] = providers;
  assert.deepEqual(adaptationFor(native!, 'responses'), { operation: 'responses' });
  assert.equal(native!.supports('response_lookup'), true);
  assert.equal(adaptationFor(chat!, 'responses')?.operation, 'chat');
  assert.equal(chat!.supports('response_lookup'), false);
  assert.equal(adaptationFor(msgs!, 'responses')?.operation, 'messages');
  assert.equal(msgs!.supports('embeddings'), false);
  assert.equal(chat!.supports('embeddings'), true);
  const router = new ModelRouter(providers);
  assert.deepEqual(router.list('embedding').map((m) => m.id), ['emb']);
  assert.deepEqual(router.list('text', 'embedding').map((m) => m.id), ['gpt-r', 'emb', 'gpt-c', 'claude-c']);
});

test('wrong values are named', () => {
  const bad = (provider: Record<string, unknown>, pattern: RegExp) =>
    assert.throws(() => parseGatewayConfig('p.json', { providers: [{ name: 'x', type: 'openai', baseUrl: 'http://127.0.0.1:1/v1', models: ['m'], ...provider }] }), (e: unknown) => e instanceof ConfigError && pattern.test(e.message));
  bad({ responsesApi: 'yes' }, /providers\[0\]\.responsesApi must be true or false/);
  bad({ type: 'anthropic', baseUrl: 'http://127.0.0.1:1', responsesApi: true }, /responsesApi applies to openai providers only/);
  bad({ models: [{ name: 'm', kind: 'audio' }] }, /providers\[0\]\.models\[0\]\.kind must be one of text, image, embedding/);
});
