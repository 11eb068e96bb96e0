// Retries, fallback and cool-down through the gateway (app.inject) against real fake upstreams on
// loopback: a first provider that refuses connections, answers 503, times out or refuses the
// gateway's key hands over to the second; a failure after the first byte is an error event.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { AnthropicProvider } from '../../../server/providers/anthropic/anthropic-provider.ts';
import { OpenAiProvider } from '../../../server/providers/openai/openai-provider.ts';
import type { Provider, RoutingSettings } from '../../../server/providers/provider.ts';
import { closedPort, FakeUpstream, jsonReply, sseReply } from '../../helpers/fake-upstream.ts';
import { bearer, createTestGateway, type TestGateway } from '../../helpers/test-app.ts';
import { accumulateChat, accumulateMessages, parseSseText } from '../../helpers/translation/accumulate.ts';
import { chatError, chatFrames, chatJson, messagesFrames, messagesJson } from '../../helpers/translation/protocol-frames.ts';

const routing: RoutingSettings = { retries: 1, cooldownAfterFailures: 100, cooldownMs: 60_000 };
const models = (ids: string[], priority: number) => ids.map((id) => ({ id, upstreamModel: `${id}-up`, kind: 'text' as const, created: 0, priority }));

function openai(name: string, url: string, ids: string[], priority: number, overrides: Partial<RoutingSettings> = {}, timeoutMs = 5000): Provider {
  return new OpenAiProvider({ name, baseUrl: `${url}/v1`, timeoutMs, models: models(ids, priority), routing: { ...routing, ...overrides } });
}
function anthropic(name: string, url: string, ids: string[], priority: number): Provider {
  return new AnthropicProvider({ name, baseUrl: url, authHeader: 'x-api-key', timeoutMs: 5000, models: models(ids, priority), routing });
}

const chatBody = (model: string, stream = false) => ({ model, messages: [{ role: 'user', content: 'hi' }], ...(stream ? { stream: true } : {}) });

describe('fallback between providers', () => {
  let first: FakeUpstream;
  let second: FakeUpstream;
  let gw: TestGateway;
  let key: string;

  // One gateway; each scenario uses its own public model name, served by the providers it needs.
  before(async () => {
    [first, second] = await Promise.all([FakeUpstream.start(), FakeUpstream.start()]);
    const dead = `http://127.0.0.1:${await closedPort()}`;
    gw = await createTestGateway({
      providers: [
        openai('dead', dead, ['refused', 'cross'], 1),
        openai('first', first.url, ['m', 'all-fail', 'translated-cut'], 1, {}, 300),
        openai('flaky', first.url, ['flaky'], 1, { retries: 0, cooldownAfterFailures: 2 }),
        anthropic('msgs-first', first.url, ['msgs-stream'], 1),
        openai('alive', second.url, ['m', 'refused', 'flaky'], 2),
        anthropic('msgs', second.url, ['cross', 'all-fail'], 2),
      ],
    });
    key = (await gw.userWithKey()).key;
  });
  beforeEach(() => {
    first.reset();
    second.reset();
    second.handle(() => jsonReply(200, chatJson('m-up', 'from second', { input: 3, output: 2 })));
  });
  after(async () => {
    await gw?.close();
    await Promise.all([first?.close(), second?.close()]);
  });

  const ask = (body: unknown) => gw.text.inject({ method: 'POST', url: '/v1/chat/completions', headers: bearer(key), payload: body as object });

  test('the first provider refuses connections: retried once, then the second serves', async () => {
    const res = await ask(chatBody('refused'));
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().choices[0].message.content, 'from second');
    assert.equal(res.headers['x-gateway-provider'], 'alive');
    assert.equal(res.headers['x-gateway-attempts'], '3');
    assert.match(String(res.headers['x-gateway-overhead-ms']), /^\d+\.\d\d$/);
  });

  test('the first provider answers 503: retried once, then the second serves', async () => {
    first.handle(() => jsonReply(503, chatError('overloaded', 'server_error')));
    const res = await ask(chatBody('m'));
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-gateway-provider'], 'alive');
    assert.equal(first.requests.length, 2);
    assert.equal(second.requests.length, 1);
  });

  test('the first provider times out (no headers, or headers and no body): not retried, the second serves', async () => {
    first.handle(() => new Promise(() => undefined));
    const silent = await ask(chatBody('m'));
    assert.equal(silent.statusCode, 200);
    assert.equal(silent.headers['x-gateway-provider'], 'alive');
    assert.equal(first.requests.length, 1);
    first.handle(() => ({ status: 200, headers: { 'content-type': 'text/event-stream' }, steps: [{ hang: true }] }));
    const stalled = await ask(chatBody('m', true));
    assert.equal(stalled.statusCode, 200);
    assert.equal(stalled.headers['x-gateway-provider'], 'alive');
    assert.equal(first.requests.length, 2);
  });

  test('the first provider refuses the gateway key (401): the second serves', async () => {
    first.handle(() => jsonReply(401, chatError('Incorrect API key', 'invalid_request_error', 'invalid_api_key')));
    const res = await ask(chatBody('m'));
    assert.equal(res.statusCode, 200);
    assert.equal(first.requests.length, 1);
  });

  test('a 400 is the request’s fault: relayed at once, no fallback', async () => {
    first.handle(() => jsonReply(400, chatError('bad messages', 'invalid_request_error')));
    const res = await ask(chatBody('m'));
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error.message, 'bad messages');
    assert.equal(second.requests.length, 0);
  });

  test('fallback across protocols: a messages-protocol second provider answers the chat client', async () => {
    second.handle(() => jsonReply(200, messagesJson('m-up', 'translated', { input: 4, output: 5 })));
    const res = await ask(chatBody('cross'));
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().object, 'chat.completion');
    assert.equal(res.json().choices[0].message.content, 'translated');
    assert.equal(second.last().path, '/v1/messages');
    assert.equal(second.last().json().model, 'cross-up');
  });

  test('when every provider fails with 503, the client gets the last answer in its own envelope', async () => {
    first.handle(() => jsonReply(503, chatError('first down', 'server_error')));
    second.handle(() => jsonReply(503, { type: 'error', error: { type: 'overloaded_error', message: 'second down' } }));
    const res = await ask(chatBody('all-fail'));
    assert.equal(res.statusCode, 503);
    assert.deepEqual(res.json().error, { message: 'second down', type: 'server_error', param: null, code: 'overloaded_error' });
    assert.equal(res.headers['x-gateway-provider'], 'msgs');
    assert.equal(res.headers['x-gateway-attempts'], '4');
  });

  test('a provider that keeps failing is skipped for the cool-down', async () => {
    first.handle(() => jsonReply(500, chatError('boom', 'server_error')));
    await ask(chatBody('flaky'));
    await ask(chatBody('flaky'));
    assert.equal(first.requests.length, 2);
    assert.equal(gw.deps.router.health.state('flaky'), 'cooling');
    const res = await ask(chatBody('flaky'));
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-gateway-attempts'], '1');
    assert.equal(first.requests.length, 2, 'the cooling provider was not called');
  });

  test('a failure after the first byte is never retried: the client gets an error event', async () => {
    const frames = chatFrames('m-up', ['Hello', ' wor'], { input: 3, output: 2 });
    first.handle(() => sseReply(frames.slice(0, 3), { then: 'destroy' }));
    const res = await ask(chatBody('m', true));
    assert.equal(res.statusCode, 200);
    const view = accumulateChat(parseSseText(res.payload));
    assert.equal(view.content, 'Hello wor');
    assert.equal(view.error.code, 'upstream_stream_error');
    assert.equal(first.requests.length, 1);
    assert.equal(second.requests.length, 0);
  });

  test('a translated stream cut after the first byte ends with the messages error event', async () => {
    const frames = chatFrames('m-up', ['Hel', 'lo'], { input: 3, output: 2 });
    first.handle(() => sseReply(frames.slice(0, 2), { then: 'destroy' }));
    const res = await gw.text.inject({ method: 'POST', url: '/v1/messages', headers: bearer(key), payload: { model: 'translated-cut', max_tokens: 20, stream: true, messages: [{ role: 'user', content: 'hi' }] } });
    const view = accumulateMessages(parseSseText(res.payload));
    assert.equal(view.message.content[0].text, 'Hel');
    assert.equal(view.types.at(-1), 'error');
    assert.equal(view.error.type, 'api_error');
  });

  test('count_tokens for a model only chat-completions upstreams serve is a 400 that says why', async () => {
    const res = await gw.text.inject({ method: 'POST', url: '/v1/messages/count_tokens', headers: bearer(key), payload: { model: 'refused', messages: [{ role: 'user', content: 'hi' }] } });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().type, 'error');
    assert.match(res.json().error.message, /cannot answer \/v1\/messages\/count_tokens/);
    assert.equal(second.requests.length, 0);
  });

  test('a translated messages stream answers a chat client event by event', async () => {
    first.handle(() => sseReply(messagesFrames('m-up', ['Hi ', 'there'], { input: 7, output: 2 })));
    const res = await ask({ ...chatBody('msgs-stream', true), stream_options: { include_usage: true } });
    const view = accumulateChat(parseSseText(res.payload));
    assert.equal(view.content, 'Hi there');
    assert.equal(view.finishReason, 'stop');
    assert.equal(view.usage.prompt_tokens, 7);
    assert.equal(view.done, true);
    assert.equal(first.last().json().stream, true);
  });
});
