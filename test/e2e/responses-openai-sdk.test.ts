// The official `openai` client's Responses and embeddings calls against a started gateway with the
// demo provider: responses.create as JSON and as a stream, a full tool round trip, image input,
// reasoning summaries with encrypted content, retrieve / previous_response_id / delete of stored
// responses, embeddings (the SDK asks for base64 and decodes it), and errors as SDK exceptions.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { GatewayProcess, isolateClientEnvironment, readResponse } from '../helpers/gateway-process.ts';
import { parseSseText } from '../helpers/translation/accumulate.ts';
import { accumulateResponses } from '../helpers/translation/accumulate-responses.ts';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const WEATHER: OpenAI.Responses.FunctionTool = {
  type: 'function',
  name: 'get_weather',
  description: 'Current weather',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  strict: false,
};

describe('openai client -> gateway -> demo provider: Responses API and embeddings', () => {
  let gateway: GatewayProcess;
  let client: OpenAI;
  let key: string;
  let restoreEnv: () => void;

  before(async () => {
    restoreEnv = isolateClientEnvironment();
    gateway = await GatewayProcess.start();
    key = (await gateway.createKey('admin', 'responses-sdk')).key;
    client = new OpenAI({ baseURL: `${gateway.textUrl}/v1`, apiKey: key, maxRetries: 0 });
  });
  after(async () => {
    await gateway?.cleanup();
    restoreEnv?.();
  });

  test('responses.create (JSON): the demo reply as output_text, usage, the gateway request id', async () => {
    const { data: response, response: raw } = await client.responses.create({ model: 'demo-chat', instructions: 'Be brief.', input: 'say pong' }).withResponse();
    assert.equal(response.status, 'completed');
    assert.match(response.output_text, /^Demo reply to "say pong"\./);
    assert.equal(response.instructions, 'Be brief.');
    assert.ok(response.usage!.input_tokens > 0 && response.usage!.output_tokens > 0);
    assert.equal(response.usage!.total_tokens, response.usage!.input_tokens + response.usage!.output_tokens);
    assert.match(raw.headers.get('x-request-id') ?? '', /^req_/);
  });

  test('responses.create (stream): events as the SDK types them, text deltas adding up to the final response', async () => {
    const stream = await client.responses.create({ model: 'demo-chat', input: 'stream to me', stream: true });
    const types: string[] = [];
    let text = '';
    let completed: OpenAI.Responses.Response | undefined;
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.completed') completed = event.response;
    }
    assert.deepEqual(types.slice(0, 4), ['response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added']);
    assert.equal(types.at(-1), 'response.completed');
    assert.ok(types.filter((t) => t === 'response.output_text.delta').length > 3);
    assert.match(text, /^Demo reply to "stream to me"\./);
    assert.equal(completed!.output_text ?? (completed!.output[0] as OpenAI.Responses.ResponseOutputMessage).content.map((c) => ('text' in c ? c.text : '')).join(''), text);

    // The same through the SDK's stream helper, and the raw bytes through an independent grammar check.
    const helper = client.responses.stream({ model: 'demo-chat', input: 'stream to me' });
    const final = await helper.finalResponse();
    assert.equal(final.output_text, text);
    const raw = await readResponse(
      await fetch(`${gateway.textUrl}/v1/responses`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'demo-chat', input: 'stream to me', stream: true }) }),
    );
    assert.ok(raw.chunks.length > 5, 'the stream arrives in pieces');
    assert.equal(accumulateResponses(parseSseText(raw.text)).text, text);
  });

  test('a tool round trip: the model calls the function (streamed arguments), the output comes back, the model answers it', async () => {
    const input: OpenAI.Responses.ResponseInput = [{ role: 'user', content: 'Weather in Oslo?' }];
    const stream = client.responses.stream({ model: 'demo-chat', input, tools: [WEATHER], tool_choice: 'required' });
    let argumentDeltas = 0;
    stream.on('response.function_call_arguments.delta', () => (argumentDeltas += 1));
    const first = await stream.finalResponse();
    const call = first.output.find((item) => item.type === 'function_call') as OpenAI.Responses.ResponseFunctionToolCall;
    assert.equal(call.name, 'get_weather');
    assert.deepEqual(JSON.parse(call.arguments), { city: 'Weather in Oslo?' });
    assert.ok(argumentDeltas >= 1);

    const second = await client.responses.create({
      model: 'demo-chat',
      tools: [WEATHER],
      input: [...input, ...(first.output as OpenAI.Responses.ResponseInputItem[]), { type: 'function_call_output', call_id: call.call_id, output: '18 C and sunny' }],
    });
    assert.match(second.output_text, /^Demo reply to "18 C and sunny"\./);
  });

  test('image input: an input_image part reaches the model (the demo names it in its reply)', async () => {
    const response = await client.responses.create({
      model: 'demo-chat',
      input: [{ role: 'user', content: [{ type: 'input_text', text: 'what is in' }, { type: 'input_image', image_url: `data:image/png;base64,${PNG}`, detail: 'auto' }] }],
    });
    assert.match(response.output_text, /^Demo reply to "what is in \[image\]"\./);
  });

  test('reasoning: a summary item with encrypted content, and reasoning tokens in usage', async () => {
    const response = await client.responses.create({ model: 'demo-chat', input: 'think first', reasoning: { effort: 'low', summary: 'auto' }, include: ['reasoning.encrypted_content'] });
    const reasoning = response.output[0] as OpenAI.Responses.ResponseReasoningItem;
    assert.equal(reasoning.type, 'reasoning');
    assert.match(reasoning.summary[0]!.text, /think first/);
    assert.ok(reasoning.encrypted_content);
    assert.ok(response.usage!.output_tokens_details.reasoning_tokens > 0);
    assert.match(response.output_text, /^Demo reply to "think first"\./);
  });

  test('stored responses: retrieve, continue with previous_response_id, delete', async () => {
    const first = await client.responses.create({ model: 'demo-chat', input: 'remember this' });
    const again = await client.responses.retrieve(first.id);
    assert.equal(again.id, first.id);
    assert.equal(again.output_text, first.output_text);
    const next = await client.responses.create({ model: 'demo-chat', input: 'and then?', previous_response_id: first.id });
    assert.equal(next.previous_response_id, first.id);
    assert.ok(next.usage!.input_tokens > first.usage!.input_tokens);
    await client.responses.delete(first.id);
    await assert.rejects(client.responses.retrieve(first.id), (error: unknown) => error instanceof OpenAI.NotFoundError && /not stored|No response/.test(error.message));
  });

  test('embeddings.create: the SDK asks for base64 and gets deterministic vectors; usage', async () => {
    const result = await client.embeddings.create({ model: 'demo-embedding', input: ['gateway routes requests', 'gateway routes requests', 'unrelated words here'] });
    assert.equal(result.data.length, 3);
    const [a, b, c] = result.data.map((d) => d.embedding);
    assert.equal(a!.length, 256);
    assert.deepEqual(a, b);
    const dot = (x: number[], y: number[]) => x.reduce((sum, v, i) => sum + v * y[i]!, 0);
    assert.ok(Math.abs(dot(a!, a!) - 1) < 1e-5);
    assert.ok(dot(a!, c!) < 0.99);
    assert.equal(result.usage.prompt_tokens, 9);
    const short = await client.embeddings.create({ model: 'demo-embedding', input: 'x', dimensions: 8, encoding_format: 'float' });
    assert.equal(short.data[0]!.embedding.length, 8);
  });

  test('errors arrive as the SDK exceptions with the field named', async () => {
    await assert.rejects(client.responses.create({ model: 'no-such-model', input: 'hi' }), (error: unknown) => error instanceof OpenAI.NotFoundError && error.param === 'model');
    await assert.rejects(
      client.responses.create({ model: 'demo-chat', input: 'hi', temperature: 3 }),
      (error: unknown) => error instanceof OpenAI.BadRequestError && error.param === 'temperature',
    );
    const wrongKey = new OpenAI({ baseURL: `${gateway.textUrl}/v1`, apiKey: 'sk-wrong', maxRetries: 0 });
    await assert.rejects(wrongKey.responses.create({ model: 'demo-chat', input: 'hi' }), OpenAI.AuthenticationError);
  });
});
