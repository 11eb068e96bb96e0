// Every error status of the text API, in the shape of its route: the OpenAI envelope
// {"error":{"message","type","param","code"}} on OpenAI routes and {"type":"error","error":{...}}
// on /v1/messages*. Upstream failures come from a fake upstream, a closed port and a short timeout.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import OpenAI from 'openai';
import { closedPort, FakeUpstream, jsonReply, rawReply, sseReply } from '../helpers/fake-upstream.ts';
import { within } from '../helpers/wait-for.ts';
import { GatewayProcess, isolateClientEnvironment, parseSse, rawRequest, readResponse, utf8HeaderValue } from '../helpers/gateway-process.ts';

const BODY_LIMIT = 4096;
const SHORT_TIMEOUT_MS = 800;

interface OpenAiError {
  error: { message: string; type: string; param: string | null; code: string | null };
}
interface MessagesError {
  type: 'error';
  error: { type: string; message: string };
  request_id?: string;
}

function assertOpenAiShape(body: unknown, type: string, code?: string): OpenAiError {
  const error = (body as OpenAiError).error;
  assert.ok(error && typeof error === 'object', `not an OpenAI error envelope: ${JSON.stringify(body)}`);
  assert.deepEqual(Object.keys(error).sort(), ['code', 'message', 'param', 'type'], JSON.stringify(body));
  assert.equal(typeof error.message, 'string');
  assert.ok(error.message.length > 10);
  assert.equal(error.type, type, JSON.stringify(body));
  if (code !== undefined) assert.equal(error.code, code, JSON.stringify(body));
  return body as OpenAiError;
}

function assertMessagesShape(body: unknown, type: string): MessagesError {
  const record = body as MessagesError;
  assert.equal(record.type, 'error', `not a messages error envelope: ${JSON.stringify(body)}`);
  assert.equal(record.error?.type, type, JSON.stringify(body));
  assert.equal(typeof record.error.message, 'string');
  assert.ok(record.error.message.length > 10);
  return record;
}

describe('error statuses in the route shape', () => {
  let upstream: FakeUpstream;
  let gateway: GatewayProcess;
  let key: string;
  let restoreEnv: () => void;

  before(async () => {
    restoreEnv = isolateClientEnvironment();
    upstream = await FakeUpstream.start();
    const dead = `http://127.0.0.1:${await closedPort()}`;
    gateway = await GatewayProcess.start({
      bodyLimit: BODY_LIMIT,
      providers: `# providers file in YAML, as an operator would write it
providers:
  - name: demo
    type: demo
  - name: up-openai
    type: openai
    baseUrl: ${upstream.url}/v1
    timeoutMs: 20000
    models: [gpt-up]
  - name: up-anthropic
    type: anthropic
    baseUrl: ${upstream.url}
    timeoutMs: 20000
    models: [claude-up]
  - name: dead-openai
    type: openai
    baseUrl: ${dead}/v1
    models: [gpt-dead]
  - name: dead-anthropic
    type: anthropic
    baseUrl: ${dead}
    models: [claude-dead]
  - name: slow-openai
    type: openai
    baseUrl: ${upstream.url}/v1
    timeoutMs: ${SHORT_TIMEOUT_MS}
    models: [gpt-slow]
  - name: slow-anthropic
    type: anthropic
    baseUrl: ${upstream.url}
    timeoutMs: ${SHORT_TIMEOUT_MS}
    models: [claude-slow]
`,
    });
    key = (await gateway.createKey('admin', 'errors')).key;
  });

  beforeEach(() => upstream.reset());

  after(async () => {
    await gateway?.cleanup();
    await upstream?.close();
    restoreEnv?.();
  });

  const chat = (body: unknown, headers: Record<string, string> = { authorization: `Bearer ${key}` }) =>
    rawRequest(`${gateway.textUrl}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const messages = (body: unknown, headers: Record<string, string> = { 'x-api-key': key }) =>
    rawRequest(`${gateway.textUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const chatBody = (model = 'demo-chat') => ({ model, messages: [{ role: 'user', content: 'hi' }] });
  const messagesBody = (model = 'demo-chat', extra: Record<string, unknown> = {}) => ({ model, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }], ...extra });

  describe('401', () => {
    test('no credential: both routes name the header to send', async () => {
      const openai = await chat(chatBody(), {});
      assert.equal(openai.status, 401);
      assert.match(assertOpenAiShape(openai.json(), 'authentication_error', 'missing_api_key').error.message, /Authorization: Bearer/);
      const models = await rawRequest(`${gateway.textUrl}/v1/models`);
      assert.equal(models.status, 401);
      assertOpenAiShape(models.json(), 'authentication_error', 'missing_api_key');
      const msg = await messages(messagesBody(), {});
      assert.equal(msg.status, 401);
      assert.match(assertMessagesShape(msg.json(), 'authentication_error').error.message, /x-api-key/);
    });

    test('a header not of the form `Bearer <key>` names the form problem and never echoes the key', async () => {
      const cases: Array<[string, RegExp]> = [
        [`Token ${key}`, /scheme is "Token"/],
        [key, /without the word "Bearer"/],
        [`Bearer  ${key}`, /more than one space/],
        [`Bearer ${key.slice(0, 20)} ${key.slice(20)}`, /space/],
        [`Bearer "${key}"`, /quotes/],
      ];
      for (const [authorization, problem] of cases) {
        const response = await chat(chatBody(), { authorization });
        assert.equal(response.status, 401, authorization);
        const body = assertOpenAiShape(response.json(), 'authentication_error');
        assert.match(body.error.message, problem);
        assert.ok(!response.body.includes(key.slice(3, 30)), `the key is echoed for ${authorization}`);
      }
    });

    test('typographic quotes around a valid key (UTF-8 bytes in the header) answer 401 naming them', async () => {
      const response = await chat(chatBody(), { authorization: utf8HeaderValue(`Bearer \u201c${key}\u201d`) });
      assert.equal(response.status, 401);
      const body = assertOpenAiShape(response.json(), 'authentication_error', 'malformed_api_key');
      assert.match(body.error.message, /typographic quote/);
      assert.ok(!response.body.includes(key.slice(3, 30)));
      const msg = await messages(messagesBody(), { 'x-api-key': utf8HeaderValue(`\u2018${key}\u2019`) });
      assert.equal(msg.status, 401);
      assert.match(assertMessagesShape(msg.json(), 'authentication_error').error.message, /typographic quote/);
    });

    test('an unknown key answers 401 with a masked hint only', async () => {
      const wrong = `sk-${'Q'.repeat(40)}WXYZ`;
      const response = await chat(chatBody(), { authorization: `Bearer ${wrong}` });
      assert.equal(response.status, 401);
      const body = assertOpenAiShape(response.json(), 'authentication_error', 'invalid_api_key');
      assert.match(body.error.message, /WXYZ/);
      assert.ok(!response.body.includes('Q'.repeat(10)));
    });

    test('x-api-key is not a credential on /v1/chat/completions', async () => {
      const response = await chat(chatBody(), { 'x-api-key': key });
      assert.equal(response.status, 401);
      assertOpenAiShape(response.json(), 'authentication_error');
    });
  });

  describe('404', () => {
    test('an unknown path lists what the address serves', async () => {
      const response = await rawRequest(`${gateway.textUrl}/v1/nothing-here`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(response.status, 404);
      assert.match(assertOpenAiShape(response.json(), 'not_found_error', 'not_found').error.message, /\/v1\/chat\/completions/);
    });

    test('an unknown model answers 404 naming the model, in each route shape', async () => {
      const openai = await chat(chatBody('no-such-model'));
      assert.equal(openai.status, 404);
      const body = assertOpenAiShape(openai.json(), 'not_found_error', 'model_not_found');
      assert.equal(body.error.param, 'model');
      assert.match(body.error.message, /no-such-model/);
      assert.ok(body.error.message.includes(`${gateway.textUrl}/v1/models`));
      const msg = await messages(messagesBody('no-such-model'));
      assert.equal(msg.status, 404);
      assert.match(assertMessagesShape(msg.json(), 'not_found_error').error.message, /no-such-model/);
    });

    test('a doubled /v1 (base URL already ending in /v1) answers 404 with the fix', async () => {
      const client = new OpenAI({ baseURL: `${gateway.textUrl}/v1/v1`, apiKey: key, maxRetries: 0 });
      await assert.rejects(client.models.list(), (error: unknown) => {
        assert.ok(error instanceof OpenAI.NotFoundError, String(error));
        const body = assertOpenAiShape(error.error && { error: error.error }, 'not_found_error', 'doubled_v1');
        assert.match(body.error.message, /\/v1 twice/);
        assert.ok(body.error.message.includes(`${gateway.textUrl}/v1 (once)`), body.error.message);
        return true;
      });
      const msg = await rawRequest(`${gateway.textUrl}/v1/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify(messagesBody()) });
      assert.equal(msg.status, 404);
      assert.match(assertMessagesShape(msg.json(), 'not_found_error').error.message, /without \/v1/);
    });
  });

  describe('400 / 413 / 415', () => {
    test('malformed JSON answers 400 in each route shape', async () => {
      const openai = await chat('{"model": "demo-chat", "messages": [');
      assert.equal(openai.status, 400);
      assert.match(assertOpenAiShape(openai.json(), 'invalid_request_error', 'invalid_json').error.message, /not valid JSON/);
      const msg = await messages('{not json');
      assert.equal(msg.status, 400);
      assert.match(assertMessagesShape(msg.json(), 'invalid_request_error').error.message, /not valid JSON/);
    });

    test('a missing or wrong field answers 400 naming the field', async () => {
      const noMessages = await chat({ model: 'demo-chat' });
      assert.equal(noMessages.status, 400);
      const body = assertOpenAiShape(noMessages.json(), 'invalid_request_error');
      assert.equal(body.error.param, 'messages');
      assert.match(body.error.message, /messages/);
      const badTemperature = await chat({ ...chatBody(), temperature: 7 });
      assert.equal(badTemperature.status, 400);
      assert.equal(assertOpenAiShape(badTemperature.json(), 'invalid_request_error').error.param, 'temperature');
      const noMaxTokens = await messages({ model: 'demo-chat', messages: [{ role: 'user', content: 'hi' }] });
      assert.equal(noMaxTokens.status, 400);
      assert.match(assertMessagesShape(noMaxTokens.json(), 'invalid_request_error').error.message, /max_tokens/);
      const notAList = await messages(messagesBody('demo-chat', { messages: 'hi' }));
      assert.equal(notAList.status, 400);
      assert.match(assertMessagesShape(notAList.json(), 'invalid_request_error').error.message, /messages/);
      // Roles are the model's to judge (system entries may come mid-conversation); the demo model refuses unknown ones.
      const badRole = await messages(messagesBody('demo-chat', { messages: [{ role: 'robot', content: 'x' }] }));
      assert.equal(badRole.status, 400);
      assert.match(assertMessagesShape(badRole.json(), 'invalid_request_error').error.message, /messages\.0\.role/);
    });

    test(`a body over --body-limit (${BODY_LIMIT} bytes) answers 413 in each route shape`, async () => {
      const big = 'x'.repeat(BODY_LIMIT + 10);
      const openai = await chat({ model: 'demo-chat', messages: [{ role: 'user', content: big }] });
      assert.equal(openai.status, 413);
      assert.match(assertOpenAiShape(openai.json(), 'invalid_request_error', 'request_too_large').error.message, new RegExp(String(BODY_LIMIT)));
      const msg = await messages(messagesBody('demo-chat', { messages: [{ role: 'user', content: big }] }));
      assert.equal(msg.status, 413);
      assertMessagesShape(msg.json(), 'request_too_large');
      const under = await chat({ model: 'demo-chat', messages: [{ role: 'user', content: 'x'.repeat(BODY_LIMIT - 200) }] });
      assert.equal(under.status, 200, 'a body under the limit passes');
    });

    test('a body that is not JSON answers 415 saying to send JSON', async () => {
      const response = await rawRequest(`${gateway.textUrl}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'text/plain', authorization: `Bearer ${key}` }, body: 'hello' });
      assert.equal(response.status, 415);
      assert.match(assertOpenAiShape(response.json(), 'invalid_request_error').error.message, /application\/json/);
    });
  });

  describe('upstream failures', () => {
    test('connection refused answers 502 in each route shape', async () => {
      const openai = await chat(chatBody('gpt-dead'));
      assert.equal(openai.status, 502);
      assert.match(assertOpenAiShape(openai.json(), 'server_error', 'upstream_unreachable').error.message, /dead-openai/);
      const msg = await messages(messagesBody('claude-dead'));
      assert.equal(msg.status, 502);
      assert.match(assertMessagesShape(msg.json(), 'api_error').error.message, /dead-anthropic/);
    });

    test('an upstream that does not answer within timeoutMs gives 504, and the upstream call is abandoned', async () => {
      upstream.handle(() => ({ steps: [{ hang: true }] }));
      const openai = await chat(chatBody('gpt-slow'));
      assert.equal(openai.status, 504);
      assert.match(assertOpenAiShape(openai.json(), 'server_error', 'upstream_timeout').error.message, /slow-openai/);
      assert.equal(await within(upstream.last().ended, 10_000, 'the upstream exchange to end'), 'aborted-by-client');
    });

    test('a hanging messages upstream gives 504 in the messages shape', async () => {
      upstream.handle(() => new Promise<never>(() => undefined)); // never even sends headers
      const msg = await messages(messagesBody('claude-slow'));
      assert.equal(msg.status, 504);
      assertMessagesShape(msg.json(), 'api_error');
    });

    test('an upstream that cuts the connection inside a JSON answer gives 502 in each route shape', async () => {
      upstream.handle(() => ({ status: 200, headers: { 'content-type': 'application/json' }, steps: [{ write: '{"id":"cut","choices":[' }, { destroy: true }] }));
      const openai = await chat(chatBody('gpt-up'));
      assert.equal(openai.status, 502, openai.body);
      assert.match(assertOpenAiShape(openai.json(), 'server_error').error.message, /up-openai/);
      const msg = await messages(messagesBody('claude-up'));
      assert.equal(msg.status, 502, msg.body);
      assertMessagesShape(msg.json(), 'api_error');
    });

    test('upstream 4xx/5xx with an envelope of the route shape are relayed as they are', async () => {
      const rateLimited = { error: { message: 'Upstream rate limit reached', type: 'rate_limit_error', param: null, code: 'rate_limit_exceeded' } };
      upstream.handle(() => jsonReply(429, rateLimited));
      const client = new OpenAI({ baseURL: `${gateway.textUrl}/v1`, apiKey: key, maxRetries: 0 });
      await assert.rejects(client.chat.completions.create({ model: 'gpt-up', messages: [{ role: 'user', content: 'hi' }] }), (error: unknown) => {
        assert.ok(error instanceof OpenAI.RateLimitError, String(error));
        assert.deepEqual(error.error, rateLimited.error);
        return true;
      });
      const badRequest = { error: { message: "Invalid value for 'top_p'", type: 'invalid_request_error', param: 'top_p', code: null } };
      upstream.handle(() => jsonReply(400, badRequest));
      const openai = await chat(chatBody('gpt-up'));
      assert.equal(openai.status, 400);
      assert.deepEqual(openai.json(), badRequest);
      const overloaded = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } };
      upstream.handle(() => jsonReply(529, overloaded));
      const msg = await messages(messagesBody('claude-up'));
      assert.equal(msg.status, 529);
      assert.deepEqual(msg.json(), overloaded);
    });

    test('upstream errors without an envelope are wrapped in the route shape with the status kept', async () => {
      upstream.handle(() => rawReply(503, '<html><body>Service Unavailable</body></html>', 'text/html'));
      const openai = await chat(chatBody('gpt-up'));
      assert.equal(openai.status, 503);
      const body = assertOpenAiShape(openai.json(), 'server_error', 'upstream_error');
      assert.match(body.error.message, /up-openai/);
      assert.match(body.error.message, /503/);
      upstream.handle(() => jsonReply(500, { detail: 'boom' }));
      const msg = await messages(messagesBody('claude-up'));
      assert.equal(msg.status, 500);
      assert.match(assertMessagesShape(msg.json(), 'api_error').error.message, /up-anthropic/);
      upstream.handle(() => rawReply(404, 'no such route'));
      const notFound = await messages(messagesBody('claude-up'));
      assert.equal(notFound.status, 404);
      assertMessagesShape(notFound.json(), 'not_found_error');
    });
  });

  describe('upstream failure mid-stream', () => {
    const chunk = (content: string) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-up', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
    const streamChat = (model: string) =>
      fetch(`${gateway.textUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({ model, stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'hi' }] }),
      });

    test('chat-completions: a cut connection ends the stream with a data: {"error":…} event', async () => {
      upstream.handle(() => sseReply([chunk('Hel'), chunk('lo')], { then: 'destroy' }));
      const read = await readResponse(await streamChat('gpt-up'));
      assert.equal(read.status, 200);
      assert.ok(read.text.startsWith(chunk('Hel') + chunk('lo')), 'what arrived before the failure is relayed');
      const events = parseSse(read.text);
      const last = JSON.parse(events.at(-1)!.data);
      assertOpenAiShape(last, 'server_error', 'upstream_stream_error');
      assert.ok(!events.some((e) => e.data === '[DONE]'), 'a failed stream is not marked done');
    });

    test('chat-completions: the openai client surfaces the error event as an APIError', async () => {
      upstream.handle(() => sseReply([chunk('partial')], { then: 'destroy' }));
      const client = new OpenAI({ baseURL: `${gateway.textUrl}/v1`, apiKey: key, maxRetries: 0 });
      const stream = await client.chat.completions.create({ model: 'gpt-up', messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } });
      let text = '';
      await assert.rejects(
        (async () => {
          for await (const part of stream) text += part.choices[0]?.delta.content ?? '';
        })(),
        (error: unknown) => {
          assert.ok(error instanceof OpenAI.APIError, String(error));
          assert.match(error.message, /up-openai/);
          return true;
        },
      );
      assert.equal(text, 'partial');
    });

    test('chat-completions: a stream that stops before [DONE] also ends with an error event', async () => {
      upstream.handle(() => sseReply([chunk('cut short')]));
      const read = await readResponse(await streamChat('gpt-up'));
      const last = parseSse(read.text).at(-1)!;
      assert.match(assertOpenAiShape(JSON.parse(last.data), 'server_error', 'upstream_stream_error').error.message, /closed the stream/);
    });

    test('chat-completions: an upstream that stalls mid-stream past timeoutMs ends with an error event', async () => {
      upstream.handle(() => sseReply([chunk('slow')], { then: 'hang' }));
      const read = await readResponse(await streamChat('gpt-slow'));
      assert.ok(read.text.startsWith(chunk('slow')));
      assertOpenAiShape(JSON.parse(parseSse(read.text).at(-1)!.data), 'server_error', 'upstream_stream_error');
      assert.equal(await within(upstream.last().ended, 10_000, 'the upstream exchange to end'), 'aborted-by-client');
    });

    test('messages: a cut connection ends the stream with event: error', async () => {
      const start = `event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-up', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 3, output_tokens: 1 } } })}\n\n`;
      const delta = `event: content_block_delta\ndata: ${JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hal' } })}\n\n`;
      upstream.handle(() => sseReply([start, delta], { then: 'destroy' }));
      const response = await fetch(`${gateway.textUrl}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key, 'anthropic-version': '2023-06-01' },
        body: JSON.stringify(messagesBody('claude-up', { stream: true })),
      });
      const read = await readResponse(response);
      assert.equal(read.status, 200);
      assert.ok(read.text.startsWith(start + delta));
      const last = parseSse(read.text).at(-1)!;
      assert.equal(last.event, 'error');
      assertMessagesShape(JSON.parse(last.data), 'api_error');
      assert.ok(!parseSse(read.text).some((e) => e.event === 'message_stop'));
    });
  });
});
