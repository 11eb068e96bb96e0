import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DemoProvider } from '../../server/providers/demo/demo-provider.ts';
import { OpenAiProvider } from '../../server/providers/openai/openai-provider.ts';
import { bearer, createTestGateway, type TestGateway } from '../helpers/test-app.ts';

let gw: TestGateway;
let key: string;
before(async () => {
  const chatOnly = new OpenAiProvider({
    name: 'chat-upstream',
    baseUrl: 'http://127.0.0.1:9/v1',
    timeoutMs: 1000,
    models: [{ id: 'gpt-test', upstreamModel: 'gpt-test', kind: 'text', created: 0 }],
  });
  gw = await createTestGateway({ providers: [new DemoProvider({ chunkDelayMs: 0 }), chatOnly], bodyLimitBytes: 2048 });
  ({ key } = await gw.userWithKey('alice'));
});
after(() => gw.close());

const chat = { model: 'demo-chat', messages: [{ role: 'user', content: 'hi' }] };
const message = { model: 'demo-chat', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] };

function assertOpenAiError(res: { statusCode: number; json: () => any }, status: number, code?: string) {
  assert.equal(res.statusCode, status);
  const body = res.json();
  assert.equal(typeof body.error.message, 'string');
  assert.equal(typeof body.error.type, 'string');
  assert.ok('param' in body.error && 'code' in body.error);
  if (code) assert.equal(body.error.code, code);
  return body.error;
}

function assertMessagesError(res: { statusCode: number; json: () => any; headers: Record<string, unknown> }, status: number, type: string) {
  assert.equal(res.statusCode, status);
  const body = res.json();
  assert.equal(body.type, 'error');
  assert.equal(body.error.type, type);
  assert.equal(body.request_id, res.headers['request-id']);
  return body.error;
}

describe('401 in each route shape', () => {
  test('OpenAI routes: missing, wrong and deleted keys', async () => {
    assertOpenAiError(await gw.text.inject({ url: '/v1/models' }), 401, 'missing_api_key');
    const wrong = assertOpenAiError(await gw.text.inject({ url: '/v1/models', headers: bearer('sk-' + 'x'.repeat(48)) }), 401, 'invalid_api_key');
    assert.match(wrong.message, /sk-…xxxx/);
    const temp = await gw.userWithKey('temp');
    assert.equal((await gw.text.inject({ url: '/v1/models', headers: bearer(temp.key) })).statusCode, 200);
    await gw.store.keys.deleteOwned(temp.userId, temp.keyId);
    gw.deps.authenticator.forgetKey(temp.keyId);
    assertOpenAiError(await gw.text.inject({ url: '/v1/models', headers: bearer(temp.key) }), 401, 'invalid_api_key');
  });

  test('messages route answers 401 in its own envelope, also for auth errors', async () => {
    const err = assertMessagesError(await gw.text.inject({ method: 'POST', url: '/v1/messages', payload: message }), 401, 'authentication_error');
    assert.match(err.message, /x-api-key/);
  });

  test('image listener: 401 too', async () => {
    assertOpenAiError(await gw.image.inject({ method: 'POST', url: '/v1/images/generations', payload: { prompt: 'x' } }), 401);
  });
});

describe('404 that explains', () => {
  test('a doubled /v1 names the problem and the base URL to use, per surface', async () => {
    const openai = assertOpenAiError(await gw.text.inject({ method: 'POST', url: '/v1/v1/chat/completions', headers: bearer(key), payload: chat }), 404, 'doubled_v1');
    assert.match(openai.message, /carries \/v1 twice/);
    assert.match(openai.message, /http:\/\/gw\.test\/v1 /);
    const messages = assertMessagesError(await gw.text.inject({ method: 'POST', url: '/v1/v1/messages', headers: bearer(key), payload: message }), 404, 'not_found_error');
    assert.match(messages.message, /http:\/\/gw\.test \(without \/v1\)/);
  });

  test('unknown paths and models, missing /v1', async () => {
    assertOpenAiError(await gw.text.inject({ url: '/v2/anything' }), 404, 'not_found');
    assertOpenAiError(await gw.text.inject({ method: 'POST', url: '/chat/completions', payload: chat }), 404, 'missing_v1');
    const model = assertOpenAiError(await gw.text.inject({ method: 'POST', url: '/v1/chat/completions', headers: bearer(key), payload: { ...chat, model: 'gpt-9' } }), 404, 'model_not_found');
    assert.equal(model.param, 'model');
    assertMessagesError(await gw.text.inject({ method: 'POST', url: '/v1/messages', headers: bearer(key), payload: { ...message, model: 'gpt-9' } }), 404, 'not_found_error');
  });

  test('each listener points to the other for the other API', async () => {
    const onText = assertOpenAiError(await gw.text.inject({ method: 'POST', url: '/v1/images/generations', payload: { prompt: 'x' } }), 404, 'wrong_address');
    assert.match(onText.message, /http:\/\/img\.gw\.test\/v1\/images\/generations/);
    const onImage = assertOpenAiError(await gw.image.inject({ method: 'POST', url: '/v1/chat/completions', payload: chat }), 404, 'wrong_address');
    assert.match(onImage.message, /http:\/\/gw\.test\/v1/);
    assert.equal((await gw.image.inject({ method: 'POST', url: '/v1/messages', payload: message })).json().type, 'error');
  });

  test('the text model list and the image model list are separate', async () => {
    const text = (await gw.text.inject({ url: '/v1/models', headers: bearer(key) })).json().data.map((m: { id: string }) => m.id);
    const image = (await gw.image.inject({ url: '/v1/models', headers: bearer(key) })).json().data.map((m: { id: string }) => m.id);
    assert.deepEqual(text, ['demo-chat', 'demo-embedding', 'gpt-test']);
    assert.deepEqual(image, ['demo-image']);
  });
});

describe('400 / 413 / 415 name what is wrong', () => {
  test('malformed JSON and empty bodies', async () => {
    const bad = assertOpenAiError(
      await gw.text.inject({ method: 'POST', url: '/v1/chat/completions', headers: { ...bearer(key), 'content-type': 'application/json' }, payload: '{"model":' }),
      400,
      'invalid_json',
    );
    assert.match(bad.message, /not valid JSON/);
    assertMessagesError(
      await gw.text.inject({ method: 'POST', url: '/v1/messages', headers: { ...bearer(key), 'content-type': 'application/json' }, payload: '' }),
      400,
      'invalid_request_error',
    );
  });

  test('missing and mistyped fields are named', async () => {
    const missing = assertOpenAiError(await gw.text.inject({ method: 'POST', url: '/v1/chat/completions', headers: bearer(key), payload: { model: 'demo-chat' } }), 400);
    assert.equal(missing.param, 'messages');
    assert.match(missing.message, /`messages`/);
    const typed = assertOpenAiError(await gw.text.inject({ method: 'POST', url: '/v1/chat/completions', headers: bearer(key), payload: { ...chat, stream: 'yes' } }), 400);
    assert.equal(typed.param, 'stream');
    const noMax = assertMessagesError(
      await gw.text.inject({ method: 'POST', url: '/v1/messages', headers: bearer(key), payload: { model: 'demo-chat', messages: [] } }),
      400,
      'invalid_request_error',
    );
    assert.match(noMax.message, /max_tokens/);
  });

  test('a body over the limit is 413, a non-JSON body 415', async () => {
    const big = { ...chat, messages: [{ role: 'user', content: 'x'.repeat(4096) }] };
    assertOpenAiError(await gw.text.inject({ method: 'POST', url: '/v1/chat/completions', headers: bearer(key), payload: big }), 413, 'request_too_large');
    assertMessagesError(await gw.text.inject({ method: 'POST', url: '/v1/messages', headers: bearer(key), payload: { ...message, system: 'y'.repeat(4096) } }), 413, 'request_too_large');
    assertOpenAiError(await gw.text.inject({ method: 'POST', url: '/v1/chat/completions', headers: { ...bearer(key), 'content-type': 'text/plain' }, payload: 'hi' }), 415);
  });

  test('a model whose upstream speaks the other protocol is translated; a field without an equivalent is a 400 naming it', async () => {
    // Translated and sent: the chat-completions upstream of gpt-test refuses connections.
    const sent = assertMessagesError(await gw.text.inject({ method: 'POST', url: '/v1/messages', headers: bearer(key), payload: { ...message, model: 'gpt-test' } }), 502, 'api_error');
    assert.match(sent.message, /"chat-upstream" could not be reached/);
    const err = assertMessagesError(await gw.text.inject({ method: 'POST', url: '/v1/messages', headers: bearer(key), payload: { ...message, model: 'gpt-test', top_k: 5 } }), 400, 'invalid_request_error');
    assert.match(err.message, /`top_k` cannot be translated/);
  });
});

describe('429 per key', () => {
  test('Retry-After and x-ratelimit-* headers; anthropic-ratelimit-* on messages', async () => {
    const limitedGw = await createTestGateway({ rateLimitRpm: 3 });
    after(() => limitedGw.close());
    const limited = await limitedGw.userWithKey('limited');
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 4; i += 1) {
      last = await limitedGw.text.inject({ method: 'POST', url: '/v1/messages', headers: bearer(limited.key), payload: message });
      statuses.push(last.statusCode);
    }
    assert.deepEqual(statuses, [200, 200, 200, 429]);
    assertMessagesError(last!, 429, 'rate_limit_error');
    assert.ok(Number(last!.headers['retry-after']) >= 1);
    assert.equal(last!.headers['x-ratelimit-limit-requests'], '3');
    assert.equal(last!.headers['x-ratelimit-remaining-requests'], '0');
    assert.equal(last!.headers['anthropic-ratelimit-requests-remaining'], '0');
    const openai = await limitedGw.text.inject({ url: '/v1/models', headers: bearer(limited.key) });
    assertOpenAiError(openai, 429, 'rate_limit_exceeded');
    const other = await limitedGw.userWithKey('other');
    assert.equal((await limitedGw.text.inject({ url: '/v1/models', headers: bearer(other.key) })).statusCode, 200);
  });
});

describe('upstream failures', () => {
  test('a refused connection is 502 in the route shape, with the provider named', async () => {
    const err = assertOpenAiError(await gw.text.inject({ method: 'POST', url: '/v1/chat/completions', headers: bearer(key), payload: { ...chat, model: 'gpt-test' } }), 502, 'upstream_unreachable');
    assert.match(err.message, /"chat-upstream" could not be reached/);
  });
});

test('GET /health is liveness (200 while serving); GET /ready is 503 with the reason when the database does not answer', async () => {
  const local = await createTestGateway();
  assert.deepEqual((await local.text.inject({ url: '/health' })).json(), { status: 'ok' });
  assert.equal((await local.image.inject({ url: '/health' })).statusCode, 200);
  assert.deepEqual((await local.text.inject({ url: '/ready' })).json(), { status: 'ready' });
  await local.store.close();
  assert.equal((await local.text.inject({ url: '/health' })).statusCode, 200, 'alive: a restart would not help');
  const down = await local.text.inject({ url: '/ready' });
  assert.equal(down.statusCode, 503);
  assert.equal(down.headers['retry-after'], '1');
  assert.deepEqual(down.json(), { status: 'unavailable', reasons: ['the database does not answer'] });
  await local.close();
});
