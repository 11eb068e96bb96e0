import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SseParser } from '../../core/protocol/sse.ts';
import { bearer, createTestGateway, type TestGateway } from '../helpers/test-app.ts';

let gw: TestGateway;
let key: string;
before(async () => {
  gw = await createTestGateway();
  ({ key } = await gw.userWithKey('alice'));
});
after(() => gw.close());

const chatBody = { model: 'demo-chat', messages: [{ role: 'user', content: 'Tell me about gateways' }] };

function sse(payload: string) {
  const parser = new SseParser();
  return [...parser.push(payload), ...parser.end()];
}

describe('GET /v1/models', () => {
  test('OpenAI list shape by default, text and embedding models (no image models)', async () => {
    const res = await gw.text.inject({ url: '/v1/models', headers: bearer(key) });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), {
      object: 'list',
      data: [
        { id: 'demo-chat', object: 'model', created: 1767225600, owned_by: 'demo' },
        { id: 'demo-embedding', object: 'model', created: 1767225600, owned_by: 'demo' },
      ],
    });
    assert.match(String(res.headers['x-request-id']), /^req_/);
  });

  test('messages-protocol shape when anthropic-version is sent, x-api-key accepted', async () => {
    const res = await gw.text.inject({ url: '/v1/models', headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01' } });
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.equal(body.has_more, false);
    assert.equal(body.data[0].type, 'model');
    assert.equal(body.first_id, 'demo-chat');
    assert.deepEqual(body.data.map((m: { id: string }) => m.id), ['demo-chat'], 'a messages client sees the models it can use');
  });

  test('a single model, and 404 for an unknown one', async () => {
    assert.equal((await gw.text.inject({ url: '/v1/models/demo-chat', headers: bearer(key) })).json().id, 'demo-chat');
    const missing = await gw.text.inject({ url: '/v1/models/nope', headers: bearer(key) });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.json().error.code, 'model_not_found');
  });
});

describe('POST /v1/chat/completions (demo)', () => {
  test('JSON answer is deterministic for a prompt and carries honest usage', async () => {
    const one = await gw.text.inject({ method: 'POST', url: '/v1/chat/completions', headers: bearer(key), payload: chatBody });
    const two = await gw.text.inject({ method: 'POST', url: '/v1/chat/completions', headers: bearer(key), payload: chatBody });
    assert.equal(one.statusCode, 200);
    const a = one.json();
    assert.equal(a.object, 'chat.completion');
    assert.equal(a.choices[0].message.content, two.json().choices[0].message.content);
    assert.match(a.choices[0].message.content, /Tell me about gateways/);
    assert.equal(a.usage.prompt_tokens, 4);
    assert.equal(a.usage.total_tokens, a.usage.prompt_tokens + a.usage.completion_tokens);
  });

  test('max_tokens cuts the answer with finish_reason length', async () => {
    const res = await gw.text.inject({ method: 'POST', url: '/v1/chat/completions', headers: bearer(key), payload: { ...chatBody, max_tokens: 3 } });
    assert.equal(res.json().choices[0].finish_reason, 'length');
    assert.equal(res.json().usage.completion_tokens, 3);
  });

  test('stream: several chunks, [DONE], and no usage chunk unless asked for', async () => {
    const res = await gw.text.inject({ method: 'POST', url: '/v1/chat/completions', headers: bearer(key), payload: { ...chatBody, stream: true } });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /text\/event-stream/);
    const events = sse(res.payload);
    assert.equal(events.at(-1)!.data, '[DONE]');
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data));
    assert.ok(chunks.length >= 4);
    assert.ok(chunks.every((c) => c.choices.length === 1), 'the usage-only chunk the gateway asked for is hidden');
    const text = chunks.map((c) => c.choices[0].delta.content ?? '').join('');
    const json = await gw.text.inject({ method: 'POST', url: '/v1/chat/completions', headers: bearer(key), payload: chatBody });
    assert.equal(text, json.json().choices[0].message.content, 'stream and JSON say the same');
  });

  test('stream with include_usage ends with the usage chunk', async () => {
    const res = await gw.text.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: bearer(key),
      payload: { ...chatBody, stream: true, stream_options: { include_usage: true } },
    });
    const events = sse(res.payload);
    const usageChunk = JSON.parse(events.at(-2)!.data);
    assert.deepEqual(usageChunk.choices, []);
    assert.equal(usageChunk.usage.prompt_tokens, 4);
  });
});

describe('POST /v1/messages (demo)', () => {
  const body = { model: 'demo-chat', max_tokens: 200, messages: [{ role: 'user', content: 'Hello there' }] };

  test('JSON with Bearer and with x-api-key; a query such as ?beta=true is ignored for routing', async () => {
    for (const headers of [bearer(key), { 'x-api-key': key }]) {
      const res = await gw.text.inject({ method: 'POST', url: '/v1/messages?beta=true', headers: { ...headers, 'anthropic-version': '2023-06-01' }, payload: body });
      assert.equal(res.statusCode, 200);
      const msg = res.json();
      assert.equal(msg.type, 'message');
      assert.equal(msg.stop_reason, 'end_turn');
      assert.equal(msg.usage.input_tokens, 2);
      assert.equal(res.headers['request-id'], res.headers['x-request-id']);
    }
  });

  test('stream: message_start … ping … deltas … message_stop with output usage', async () => {
    const res = await gw.text.inject({ method: 'POST', url: '/v1/messages', headers: bearer(key), payload: { ...body, stream: true } });
    const events = sse(res.payload);
    const names = events.map((e) => e.event);
    assert.equal(names[0], 'message_start');
    assert.ok(names.includes('ping'));
    assert.equal(names.at(-1), 'message_stop');
    assert.ok(names.filter((n) => n === 'content_block_delta').length >= 3);
    const delta = JSON.parse(events.find((e) => e.event === 'message_delta')!.data);
    const text = events.filter((e) => e.event === 'content_block_delta').map((e) => JSON.parse(e.data).delta.text).join('');
    assert.equal(delta.usage.output_tokens, text.match(/\s*(?:[\p{L}\p{N}]+|[^\s\p{L}\p{N}])/gu)!.length);
  });

  test('count_tokens', async () => {
    const res = await gw.text.inject({ method: 'POST', url: '/v1/messages/count_tokens', headers: bearer(key), payload: { model: 'demo-chat', messages: body.messages } });
    assert.deepEqual(res.json(), { input_tokens: 2 });
  });
});

describe('usage', () => {
  test('requests and tokens are counted per key and model, streams included', async () => {
    const fresh = await gw.userWithKey('usage-user');
    await gw.text.inject({ method: 'POST', url: '/v1/chat/completions', headers: bearer(fresh.key), payload: { ...chatBody, stream: true } });
    await gw.text.inject({ method: 'POST', url: '/v1/chat/completions', headers: bearer(fresh.key), payload: { model: 'nope', messages: chatBody.messages } });
    await gw.deps.usage.flush();
    const rows = await gw.store.usage.rows({ userId: fresh.userId });
    const demo = rows.find((r) => r.model === 'demo-chat')!;
    assert.equal(demo.requests, 1);
    assert.equal(demo.inputTokens, 4);
    assert.ok(demo.outputTokens > 10);
    const rejected = rows.find((r) => r.model === '(none)')!;
    assert.equal(rejected.errors, 1);
    const [key] = await gw.store.keys.listForUser(fresh.userId);
    assert.ok(key!.lastUsedAt, 'last_used_at is written with the batch');
  });
});
