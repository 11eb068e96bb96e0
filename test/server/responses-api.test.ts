// POST /v1/responses, GET/DELETE /v1/responses/{id} and POST /v1/embeddings through app.inject:
// validation and errors in the OpenAI shape naming the field, request ids, the per-key rate limit,
// the demo's answers (JSON, a grammar-checked stream, stored responses, previous_response_id),
// refusals of what a translated model cannot carry, and usage counted per key and model.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AnthropicProvider } from '../../server/providers/anthropic/anthropic-provider.ts';
import { DemoProvider } from '../../server/providers/demo/demo-provider.ts';
import { countTokens } from '../../server/providers/demo/demo-text.ts';
import { OpenAiProvider } from '../../server/providers/openai/openai-provider.ts';
import { parseSseText } from '../helpers/translation/accumulate.ts';
import { accumulateResponses } from '../helpers/translation/accumulate-responses.ts';
import { bearer, createTestGateway, type TestGateway } from '../helpers/test-app.ts';

let gw: TestGateway;
let key: string;
before(async () => {
  // Nothing listens on these upstreams: refusals happen before anything is sent.
  const chatUp = new OpenAiProvider({ name: 'chat-up', baseUrl: 'http://127.0.0.1:9/v1', timeoutMs: 1000, models: [{ id: 'gpt-translated', upstreamModel: 'gpt-up', kind: 'text', created: 0 }] });
  const messagesUp = new AnthropicProvider({
    name: 'msgs-up',
    baseUrl: 'http://127.0.0.1:9',
    authHeader: 'x-api-key',
    timeoutMs: 1000,
    models: [
      { id: 'claude-translated', upstreamModel: 'claude-up', kind: 'text', created: 0 },
      { id: 'claude-embedder', upstreamModel: 'claude-up', kind: 'embedding', created: 0 },
    ],
  });
  gw = await createTestGateway({ providers: [new DemoProvider({ chunkDelayMs: 0 }), chatUp, messagesUp] });
  ({ key } = await gw.userWithKey('alice'));
});
after(() => gw.close());

const post = (url: string, payload: unknown, headers: Record<string, string> = bearer(key)) => gw.text.inject({ method: 'POST', url, headers, payload: payload as object });

function openAiError(res: { statusCode: number; body: string; json: () => any; headers: Record<string, unknown> }, status: number, param?: string | null) {
  assert.equal(res.statusCode, status, res.body);
  const error = res.json().error;
  assert.equal(typeof error.message, 'string');
  assert.equal(typeof error.type, 'string');
  assert.ok('code' in error && 'param' in error);
  if (param !== undefined) assert.equal(error.param, param);
  assert.match(String(res.headers['x-request-id']), /^req_/);
  return error;
}

describe('POST /v1/responses: what is checked', () => {
  test('model is required and must be a string; input must be a string or a list', async () => {
    openAiError(await post('/v1/responses', { input: 'hi' }), 400, 'model');
    openAiError(await post('/v1/responses', { model: 7, input: 'hi' }), 400, 'model');
    openAiError(await post('/v1/responses', { model: 'demo-chat', input: 42 }), 400, 'input');
  });

  test('an unknown model is 404 naming the model list; a missing key 401 with x-should-retry: false', async () => {
    const error = openAiError(await post('/v1/responses', { model: 'nope', input: 'hi' }), 404, 'model');
    assert.match(error.message, /\/v1\/models/);
    const anonymous = await post('/v1/responses', { model: 'demo-chat', input: 'hi' }, {});
    openAiError(anonymous, 401);
    assert.equal(anonymous.headers['x-should-retry'], 'false');
  });

  test('unknown fields and item types reach the model (the demo ignores what it does not use)', async () => {
    const res = await post('/v1/responses', { model: 'demo-chat', input: [{ type: 'message', role: 'user', content: 'hi', future_field: 1 }], brand_new_option: { x: 1 } });
    assert.equal(res.statusCode, 200, res.body);
  });
});

describe('POST /v1/responses: the demo model', () => {
  test('JSON: a deterministic reply with usage, the request repeated in the response', async () => {
    const body = { model: 'demo-chat', input: 'say pong', instructions: 'Be brief.', temperature: 0.3 };
    const [a, b] = [await post('/v1/responses', body), await post('/v1/responses', body)];
    assert.equal(a.statusCode, 200, a.body);
    const [ra, rb] = [a.json(), b.json()];
    assert.equal(ra.object, 'response');
    assert.equal(ra.status, 'completed');
    assert.equal(ra.instructions, 'Be brief.');
    assert.equal(ra.temperature, 0.3);
    const text = ra.output[0].content[0].text;
    assert.match(text, /^Demo reply to "say pong"\./);
    assert.equal(text, rb.output[0].content[0].text, 'deterministic');
    assert.equal(ra.usage.output_tokens, countTokens(text));
    assert.equal(ra.usage.input_tokens, countTokens('Be brief.\nsay pong'));
    assert.equal(ra.usage.total_tokens, ra.usage.input_tokens + ra.usage.output_tokens);
    assert.equal(a.headers['x-gateway-provider'], 'demo');
  });

  test('stream: the Responses event grammar, text deltas and the final usage', async () => {
    const res = await post('/v1/responses', { model: 'demo-chat', input: 'stream please', stream: true, reasoning: { summary: 'auto' } });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/event-stream/);
    const view = accumulateResponses(parseSseText(res.body));
    assert.equal(view.status, 'completed');
    assert.match(view.text, /^Demo reply to "stream please"\./);
    assert.equal(view.items[0].type, 'reasoning', 'a summary was asked for');
    assert.ok(view.types.filter((t) => t === 'response.output_text.delta').length > 3, 'the text arrives in several deltas');
    assert.equal(view.usage.output_tokens_details.reasoning_tokens, countTokens(view.reasoning[0]!));
    assert.equal(view.usage.output_tokens, countTokens(view.text) + view.usage.output_tokens_details.reasoning_tokens);
  });

  test('max_output_tokens cuts the reply: status incomplete, reason max_output_tokens', async () => {
    const res = (await post('/v1/responses', { model: 'demo-chat', input: 'long one', max_output_tokens: 3 })).json();
    assert.equal(res.status, 'incomplete');
    assert.deepEqual(res.incomplete_details, { reason: 'max_output_tokens' });
    assert.equal(res.usage.output_tokens, 3);
  });

  test('stored responses: GET returns it, previous_response_id continues it, DELETE removes it; store: false keeps nothing', async () => {
    const first = (await post('/v1/responses', { model: 'demo-chat', input: 'remember me' })).json();
    const got = await gw.text.inject({ url: `/v1/responses/${first.id}`, headers: bearer(key) });
    assert.equal(got.statusCode, 200);
    assert.deepEqual(got.json(), first);
    assert.equal(got.headers['x-gateway-provider'], 'demo');

    const next = (await post('/v1/responses', { model: 'demo-chat', input: 'and now?', previous_response_id: first.id })).json();
    assert.equal(next.previous_response_id, first.id);
    assert.ok(next.usage.input_tokens > countTokens('and now?'), 'the earlier turn is part of the input');
    openAiError(await post('/v1/responses', { model: 'demo-chat', input: 'x', previous_response_id: 'resp_unknown' }), 400, 'previous_response_id');

    const deleted = await gw.text.inject({ method: 'DELETE', url: `/v1/responses/${first.id}`, headers: bearer(key) });
    assert.deepEqual(deleted.json(), { id: first.id, object: 'response.deleted', deleted: true });
    const gone = openAiError(await gw.text.inject({ url: `/v1/responses/${first.id}`, headers: bearer(key) }), 404, 'response_id');
    assert.match(gone.message, /not stored/);

    const unstored = (await post('/v1/responses', { model: 'demo-chat', input: 'forget me', store: false })).json();
    assert.equal(unstored.store, false);
    openAiError(await gw.text.inject({ url: `/v1/responses/${unstored.id}`, headers: bearer(key) }), 404);
    openAiError(await gw.text.inject({ url: '/v1/responses/bad%20id', headers: bearer(key) }), 400, 'response_id');
    openAiError(await gw.text.inject({ url: `/v1/responses/${next.id}?stream=true`, headers: bearer(key) }), 400, 'stream');
    openAiError(await gw.text.inject({ url: `/v1/responses/${next.id}` }), 401);
  });
});

describe('POST /v1/responses: what a translated model cannot carry is refused, naming the field', () => {
  const cases: Array<[string, Record<string, unknown>, string, RegExp]> = [
    ['gpt-translated', { previous_response_id: 'resp_1' }, 'previous_response_id', /keeps no conversation state/],
    ['claude-translated', { previous_response_id: 'resp_1' }, 'previous_response_id', /send the whole conversation in `input`/],
    ['gpt-translated', { tools: [{ type: 'function', name: 'f' }, { type: 'web_search' }] }, 'tools[1].type', /runs at a Responses provider/],
    ['claude-translated', { input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'data:image/png;base64,AAAA', detail: 'high' }] }] }, 'input[0].content[0].detail', /no image detail/],
    ['claude-translated', { input: [{ role: 'user', content: 'hi' }, { role: 'developer', content: 'late' }] }, 'input[1].role', /one system prompt/],
    ['claude-translated', { input: [{ type: 'reasoning', summary: [{ type: 'summary_text', text: 'hm' }] }, { role: 'user', content: 'hi' }] }, 'input[0].encrypted_content', /signature/],
    ['gpt-translated', { input: [{ type: 'item_reference', id: 'msg_1' }] }, 'input[0]', /stored at a Responses provider|send the items themselves/],
    ['gpt-translated', { include: ['message.output_text.logprobs'] }, 'include[0]', /only reasoning.encrypted_content/],
    ['claude-translated', { temperature: 1.5 }, 'temperature', /0 to 1/],
  ];
  for (const [model, extra, param, message] of cases) {
    test(`${model}: ${param}`, async () => {
      const error = openAiError(await post('/v1/responses', { model, input: 'hi', ...extra }), 400, param);
      assert.equal(error.code, 'untranslatable_request');
      assert.match(error.message, message);
    });
  }
});

describe('POST /v1/embeddings', () => {
  test('the demo embedding model: deterministic unit vectors, float and base64 agree, usage counted', async () => {
    const floats = (await post('/v1/embeddings', { model: 'demo-embedding', input: ['the gateway routes', 'the gateway routes'], dimensions: 32 })).json();
    assert.equal(floats.object, 'list');
    assert.equal(floats.data.length, 2);
    const [a, b] = floats.data.map((d: { embedding: number[] }) => d.embedding);
    assert.equal(a.length, 32);
    assert.deepEqual(a, b);
    assert.ok(Math.abs(Math.hypot(...a) - 1) < 1e-6);
    const encoded = (await post('/v1/embeddings', { model: 'demo-embedding', input: 'the gateway routes', dimensions: 32, encoding_format: 'base64' })).json();
    const bytes = Buffer.from(encoded.data[0].embedding, 'base64');
    assert.deepEqual(Array.from(new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4)), a);
    assert.deepEqual(floats.usage, { prompt_tokens: 6, total_tokens: 6 });
  });

  test('bad input names the field; models of another kind or protocol are refused', async () => {
    openAiError(await post('/v1/embeddings', { model: 'demo-embedding' }), 400, 'input');
    openAiError(await post('/v1/embeddings', { model: 'demo-embedding', input: 'x', dimensions: 0 }), 400, 'dimensions');
    openAiError(await post('/v1/embeddings', { model: 'demo-chat', input: 'x' }), 404, 'model');
    openAiError(await post('/v1/chat/completions', { model: 'demo-embedding', messages: [{ role: 'user', content: 'x' }] }), 404, 'model');
    assert.equal(openAiError(await post('/v1/embeddings', { model: 'claude-embedder', input: 'x' }), 400, 'model').code, 'protocol_not_supported');
  });
});

describe('usage and limits', () => {
  test('Responses (JSON and stream) and embeddings are counted per key and model with the upstream numbers', async () => {
    const fresh = await gw.userWithKey('usage-responses');
    const json = (await post('/v1/responses', { model: 'demo-chat', input: 'count me' }, bearer(fresh.key))).json();
    const stream = accumulateResponses(parseSseText((await post('/v1/responses', { model: 'demo-chat', input: 'count me too', stream: true }, bearer(fresh.key))).body));
    await post('/v1/embeddings', { model: 'demo-embedding', input: 'one two three' }, bearer(fresh.key));
    await gw.deps.usage.flush();
    const rows = await gw.store.usage.rows({ userId: fresh.userId });
    const chat = rows.find((r) => r.model === 'demo-chat')!;
    assert.equal(chat.requests, 2);
    assert.equal(chat.inputTokens, json.usage.input_tokens + stream.usage.input_tokens);
    assert.equal(chat.outputTokens, json.usage.output_tokens + stream.usage.output_tokens);
    const embedding = rows.find((r) => r.model === 'demo-embedding')!;
    assert.deepEqual([embedding.requests, embedding.inputTokens, embedding.outputTokens], [1, 3, 0]);
  });

  test('the per-key rate limit applies, in the OpenAI shape with Retry-After', async () => {
    const limited = await createTestGateway({ rateLimitRpm: 1 });
    try {
      const { key: limitedKey } = await limited.userWithKey();
      const first = await limited.text.inject({ method: 'POST', url: '/v1/responses', headers: bearer(limitedKey), payload: { model: 'demo-chat', input: 'hi' } });
      assert.equal(first.statusCode, 200);
      assert.equal(first.headers['x-ratelimit-limit-requests'], '1');
      const second = await limited.text.inject({ method: 'POST', url: '/v1/embeddings', headers: bearer(limitedKey), payload: { model: 'demo-embedding', input: 'hi' } });
      const error = openAiError(second, 429);
      assert.equal(error.code, 'rate_limit_exceeded');
      assert.ok(Number(second.headers['retry-after']) >= 1);
    } finally {
      await limited.close();
    }
  });
});

describe('client sessions', () => {
  test("the Codex CLI's session-id header attributes usage to its session", async () => {
    const { clientSessionId } = await import('../../server/usage/client-session.ts');
    assert.equal(clientSessionId({ 'session-id': '01a20a9b-eb2b-74d3-8123-44454dcacd21' }), '01a20a9b-eb2b-74d3-8123-44454dcacd21');
    assert.equal(clientSessionId({ 'x-claude-code-session-id': 'a', 'session-id': 'b' }), 'a');
    assert.equal(clientSessionId({ 'session-id': 'not an id!' }), undefined);
  });
});
