// Responses clients against a fake upstream that serves the Responses API (an `openai` provider
// with responsesApi: true): the upstream gets the client's body bytes (previous_response_id and
// all), the provider's own key and openai-beta; answers and recorded-shape streams come back byte
// for byte and parse in the official SDK; stored responses are reached by id (GET, DELETE), asking
// each upstream that keeps responses in turn; upstream errors keep their status and body; a stream
// cut short ends in an error; embeddings pass through to the same upstream.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, beforeEach, describe, test } from 'node:test';
import OpenAI from 'openai';
import { FakeUpstream, jsonReply, sseReply, type RecordedRequest } from '../helpers/fake-upstream.ts';
import { GatewayProcess, isolateClientEnvironment, readResponse } from '../helpers/gateway-process.ts';
import { parseSseText } from '../helpers/translation/accumulate.ts';
import { accumulateResponses } from '../helpers/translation/accumulate-responses.ts';

const UPSTREAM_KEY = 'upstream-responses-secret-0003';
const STREAM = readFileSync(new URL('../fixtures/sse/responses/reasoning-text-call.sse', import.meta.url));

function responseJson(id: string, text: string) {
  return {
    id,
    object: 'response',
    created_at: 1761000000,
    status: 'completed',
    error: null,
    incomplete_details: null,
    instructions: null,
    model: 'gpt-5-codex',
    output: [{ id: 'msg_1', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] }],
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    temperature: 1,
    top_p: 1,
    metadata: {},
    usage: { input_tokens: 40, input_tokens_details: { cached_tokens: 32 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 45 },
  };
}

/** The fixture in pieces that split lines and multi-byte characters. */
function pieces(bytes: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

describe('Responses clients -> gateway -> an upstream that serves the Responses API', () => {
  let upstream: FakeUpstream;
  let gateway: GatewayProcess;
  let key: string;
  let client: OpenAI;
  let restoreEnv: () => void;

  before(async () => {
    restoreEnv = isolateClientEnvironment();
    upstream = await FakeUpstream.start();
    gateway = await GatewayProcess.start({
      providers: {
        providers: [
          { type: 'demo', name: 'demo' },
          {
            name: 'responses-up',
            type: 'openai',
            responsesApi: true,
            baseUrl: `${upstream.url}/v1`,
            apiKeyEnv: 'E2E_RESPONSES_KEY',
            retries: 0,
            timeoutMs: 20_000,
            models: ['gpt-native', { name: 'codex-alias', upstreamModel: 'gpt-5-codex' }, { name: 'embed-up', kind: 'embedding' }],
          },
        ],
      },
      env: { E2E_RESPONSES_KEY: UPSTREAM_KEY },
    });
    key = (await gateway.createKey('admin', 'responses-pass')).key;
    client = new OpenAI({ baseURL: `${gateway.textUrl}/v1`, apiKey: key, maxRetries: 0 });
  });
  beforeEach(() => upstream.reset());
  after(async () => {
    await gateway?.cleanup();
    await upstream?.close();
    restoreEnv?.();
  });

  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${gateway.textUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers }, body });

  function assertProviderCredentials(sent: RecordedRequest): void {
    assert.equal(sent.headers.authorization, `Bearer ${UPSTREAM_KEY}`);
    assert.ok(!JSON.stringify(sent.headers).includes(key) && !sent.body.toString().includes(key), 'the gateway key never leaves the gateway');
  }

  test('JSON: the client body bytes go up unchanged (previous_response_id included), the answer comes back byte for byte', async () => {
    const answer = JSON.stringify(responseJson('resp_up_1', 'Grüße ✓'), null, 1);
    upstream.handle(() => ({ status: 200, headers: { 'content-type': 'application/json', 'x-request-id': 'req_upstream_1', 'x-ratelimit-remaining-tokens': '999' }, steps: [{ write: answer }] }));
    const body = `{"model":"gpt-native", "input":[{"role":"user","content":"hi"}], "previous_response_id":"resp_prev_9", "store":true, "some_new_field":{"a":1}}`;
    const res = await readResponse(await post('/v1/responses', body, { 'openai-beta': 'responses=v1' }));
    assert.equal(res.status, 200);
    assert.equal(res.text, answer);
    const sent = upstream.last();
    assert.equal(sent.method, 'POST');
    assert.equal(sent.path, '/v1/responses');
    assert.equal(sent.body.toString(), body);
    assert.equal(sent.headers['openai-beta'], 'responses=v1');
    assertProviderCredentials(sent);
    assert.equal(res.headers.get('x-gateway-provider'), 'responses-up');
    assert.equal(res.headers.get('x-upstream-request-id'), 'req_upstream_1');
    assert.equal(res.headers.get('x-ratelimit-remaining-tokens'), '999');
  });

  test('an alias is rewritten to the upstream model name, nothing else changes', async () => {
    upstream.handle(() => jsonReply(200, responseJson('resp_up_2', 'ok')));
    const response = await client.responses.create({ model: 'codex-alias', input: 'hi', reasoning: { effort: 'high' } });
    assert.equal(response.output_text, 'ok');
    assert.deepEqual(upstream.last().json(), { model: 'gpt-5-codex', input: 'hi', reasoning: { effort: 'high' } });
  });

  test('stream: a recorded-shape Responses stream arrives byte for byte and parses in the SDK', async () => {
    upstream.handle(() => sseReply(pieces(STREAM, 97), { delayMs: 1 }));
    const raw = await readResponse(await post('/v1/responses', JSON.stringify({ model: 'gpt-native', input: 'list files', stream: true })));
    assert.equal(raw.status, 200);
    assert.ok(raw.bytes.equals(STREAM), 'bytes intact');
    const view = accumulateResponses(parseSseText(raw.text));
    assert.deepEqual(view.items.map((i) => i.type), ['reasoning', 'message', 'function_call']);

    const final = await client.responses.stream({ model: 'gpt-native', input: 'list files' }).finalResponse();
    assert.equal(final.output_text, 'Grüße — ich liste die Dateien 🙂.');
    const call = final.output[2] as OpenAI.Responses.ResponseFunctionToolCall;
    assert.deepEqual(JSON.parse(call.arguments), { command: ['ls', '-la'] });
    assert.equal(final.usage!.input_tokens_details.cached_tokens, 4864);
    assert.equal(final.usage!.output_tokens_details.reasoning_tokens, 64);
  });

  test('a stream cut before its terminal event ends in an error the SDK raises', async () => {
    const cut = STREAM.subarray(0, STREAM.indexOf('event: response.function_call_arguments.done'));
    upstream.handle(() => sseReply([cut], { then: 'destroy' }));
    const stream = await client.responses.create({ model: 'gpt-native', input: 'list files', stream: true });
    await assert.rejects(
      (async () => {
        for await (const _event of stream) void _event;
      })(),
      (error: unknown) => error instanceof OpenAI.APIError && /before it was complete|failed during the stream/.test(error.message),
    );
  });

  test('GET and DELETE /v1/responses/{id}: asked in turn (the demo does not know the id), reaching the upstream with its key', async () => {
    upstream.handle((request) => (request.method === 'DELETE' ? jsonReply(200, { id: 'resp_stored_7', object: 'response.deleted', deleted: true }) : jsonReply(200, responseJson('resp_stored_7', 'from storage'))));
    const got = await client.responses.retrieve('resp_stored_7');
    assert.equal(got.output_text, 'from storage');
    const sent = upstream.last();
    assert.equal(sent.method, 'GET');
    assert.equal(sent.path, '/v1/responses/resp_stored_7');
    assert.equal(sent.body.length, 0);
    assertProviderCredentials(sent);
    await client.responses.delete('resp_stored_7');
    assert.equal(upstream.last().method, 'DELETE');

    upstream.handle(() => jsonReply(404, { error: { message: "No response found with id 'resp_nowhere'.", type: 'invalid_request_error', param: null, code: null } }));
    await assert.rejects(client.responses.retrieve('resp_nowhere'), (error: unknown) => error instanceof OpenAI.NotFoundError && /responses-up/.test(error.message));
  });

  test('upstream errors keep their status and body; Retry-After comes back', async () => {
    const refusal = { error: { message: "Invalid value for 'reasoning.effort'.", type: 'invalid_request_error', param: 'reasoning.effort', code: 'invalid_value' } };
    upstream.handle(() => jsonReply(400, refusal));
    const res = await readResponse(await post('/v1/responses', JSON.stringify({ model: 'gpt-native', input: 'hi', reasoning: { effort: 'extreme' } })));
    assert.equal(res.status, 400);
    assert.deepEqual(JSON.parse(res.text), refusal);

    upstream.handle(() => jsonReply(429, { error: { message: 'Slow down', type: 'rate_limit_error', param: null, code: 'rate_limit_exceeded' } }, { 'retry-after': '7' }));
    await assert.rejects(client.responses.create({ model: 'gpt-native', input: 'hi' }), (error: unknown) => error instanceof OpenAI.RateLimitError && error.headers?.get('retry-after') === '7');
  });

  test('embeddings pass through to the upstream with the client bytes', async () => {
    const vector = Buffer.from(new Float32Array([0.6, 0.8]).buffer).toString('base64');
    upstream.handle(() => jsonReply(200, { object: 'list', data: [{ object: 'embedding', index: 0, embedding: vector }], model: 'embed-up', usage: { prompt_tokens: 3, total_tokens: 3 } }));
    const result = await client.embeddings.create({ model: 'embed-up', input: 'three tokens here' });
    assert.equal(upstream.last().path, '/v1/embeddings');
    assert.deepEqual(upstream.last().json(), { model: 'embed-up', input: 'three tokens here', encoding_format: 'base64' });
    assertProviderCredentials(upstream.last());
    assert.deepEqual(result.data[0]!.embedding.map((v) => Number(v.toFixed(3))), [0.6, 0.8]);
    assert.equal(result.usage.prompt_tokens, 3);
  });
});
