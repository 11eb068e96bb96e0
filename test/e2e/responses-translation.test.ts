// The official `openai` client's responses.create against a started gateway whose models are
// served by a chat-completions upstream and by a messages upstream (fakes on loopback), through
// translation: what each upstream receives, and what the client gets back — text, streams, a tool
// round trip with parallel streamed calls, images, reasoning returned intact, namespaced
// functions, usage with cached and reasoning tokens, upstream errors as SDK exceptions.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import OpenAI from 'openai';
import { FakeUpstream, jsonReply, sseReply } from '../helpers/fake-upstream.ts';
import { GatewayProcess, isolateClientEnvironment } from '../helpers/gateway-process.ts';
import { chatError, chatFrames, chatJson, messagesError, messagesFrames, messagesJson } from '../helpers/translation/protocol-frames.ts';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const WEATHER: OpenAI.Responses.FunctionTool = {
  type: 'function',
  name: 'get_weather',
  description: 'Current weather',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  strict: false,
};
const PARALLEL = [
  { id: 'call_sf', name: 'get_weather', pieces: ['{"city": "San', ' Francisco"}'] },
  { id: 'call_mu', name: 'get_weather', pieces: ['{"city": "Mün', 'chen"}'] },
];

async function collect(stream: AsyncIterable<OpenAI.Responses.ResponseStreamEvent>) {
  const types: string[] = [];
  let text = '';
  let final: OpenAI.Responses.Response | undefined;
  for await (const event of stream) {
    types.push(event.type);
    if (event.type === 'response.output_text.delta') text += event.delta;
    if (event.type === 'response.completed' || event.type === 'response.incomplete' || event.type === 'response.failed') final = event.response;
  }
  return { types, text, final: final! };
}

describe('openai client (Responses) -> gateway -> translated upstreams', () => {
  let chatUp: FakeUpstream;
  let msgUp: FakeUpstream;
  let gateway: GatewayProcess;
  let client: OpenAI;
  let restoreEnv: () => void;

  before(async () => {
    restoreEnv = isolateClientEnvironment();
    [chatUp, msgUp] = await Promise.all([FakeUpstream.start(), FakeUpstream.start()]);
    gateway = await GatewayProcess.start({
      providers: {
        providers: [
          { name: 'chat-up', type: 'openai', baseUrl: `${chatUp.url}/v1`, apiKeyEnv: 'TR_CHAT_KEY', retries: 0, maxTokensField: 'max_completion_tokens', timeoutMs: 20_000, models: [{ name: 'rx-chat', upstreamModel: 'gpt-up' }] },
          { name: 'msgs-up', type: 'anthropic', baseUrl: msgUp.url, apiKeyEnv: 'TR_MSG_KEY', retries: 0, defaultMaxTokens: 1000, timeoutMs: 20_000, models: [{ name: 'rx-claude', upstreamModel: 'claude-up' }] },
        ],
      },
      env: { TR_CHAT_KEY: 'upstream-chat-secret', TR_MSG_KEY: 'upstream-msg-secret' },
    });
    const { key } = await gateway.createKey('admin', 'responses-translation');
    client = new OpenAI({ baseURL: `${gateway.textUrl}/v1`, apiKey: key, maxRetries: 0 });
  });
  beforeEach(() => {
    chatUp.reset();
    msgUp.reset();
  });
  after(async () => {
    await gateway?.cleanup();
    await Promise.all([chatUp?.close(), msgUp?.close()]);
    restoreEnv?.();
  });

  describe('a chat-completions upstream', () => {
    test('text: the chat request it gets, the response object the client gets, usage with cached tokens', async () => {
      chatUp.handle(() => jsonReply(200, chatJson('gpt-up', 'Hello ✓', { input: 20, output: 3, cacheRead: 512 })));
      const response = await client.responses.create({ model: 'rx-chat', instructions: 'Be brief.', input: 'Say hello', temperature: 0.5, max_output_tokens: 50, reasoning: { effort: 'low' }, prompt_cache_key: 'thread-1', store: false });
      const sent = chatUp.last();
      assert.equal(sent.path, '/v1/chat/completions');
      assert.equal(sent.headers.authorization, 'Bearer upstream-chat-secret');
      assert.deepEqual(sent.json(), {
        model: 'gpt-up',
        messages: [
          { role: 'system', content: 'Be brief.' },
          // Through the canonical model a user turn is a list of parts.
          { role: 'user', content: [{ type: 'text', text: 'Say hello' }] },
        ],
        max_completion_tokens: 50,
        temperature: 0.5,
        prompt_cache_key: 'thread-1',
        reasoning_effort: 'low',
      });
      assert.equal(response.object, 'response');
      assert.equal(response.status, 'completed');
      assert.equal(response.output_text, 'Hello ✓');
      assert.equal(response.instructions, 'Be brief.');
      assert.equal(response.usage!.input_tokens, 532);
      assert.equal(response.usage!.input_tokens_details.cached_tokens, 512);
      assert.equal(response.usage!.output_tokens, 3);
    });

    test('stream: Responses events as the chunks arrive, usage asked for upstream and reported at the end', async () => {
      chatUp.handle(() => sseReply(chatFrames('gpt-up', ['Grüße ', 'aus ', 'Zürich 🙂'], { input: 9, output: 7 }), { delayMs: 2 }));
      const { types, text, final } = await collect(await client.responses.create({ model: 'rx-chat', input: 'Greet', stream: true }));
      assert.equal(text, 'Grüße aus Zürich 🙂');
      assert.deepEqual(types.slice(0, 2), ['response.created', 'response.in_progress']);
      assert.equal(types.at(-1), 'response.completed');
      assert.equal(final.usage!.input_tokens, 9);
      assert.deepEqual(chatUp.last().json().stream_options, { include_usage: true });
    });

    test('a tool round trip: parallel calls streamed as function_call items, their outputs sent back as tool messages', async () => {
      chatUp.handle(() => sseReply(chatFrames('gpt-up', ['Checking.'], { input: 40, output: 30 }, { tools: PARALLEL })));
      const stream = client.responses.stream({ model: 'rx-chat', input: [{ role: 'user', content: 'Weather in SF and München?' }], tools: [WEATHER], tool_choice: 'required', parallel_tool_calls: true });
      let argumentDeltas = 0;
      stream.on('response.function_call_arguments.delta', () => (argumentDeltas += 1));
      const first = await stream.finalResponse();
      const calls = first.output.filter((i) => i.type === 'function_call') as OpenAI.Responses.ResponseFunctionToolCall[];
      assert.deepEqual(calls.map((c) => [c.call_id, c.name, JSON.parse(c.arguments)]), [
        ['call_sf', 'get_weather', { city: 'San Francisco' }],
        ['call_mu', 'get_weather', { city: 'München' }],
      ]);
      assert.ok(argumentDeltas >= 4);
      const sent = chatUp.last().json();
      assert.deepEqual(sent.tools, [{ type: 'function', function: { name: 'get_weather', parameters: WEATHER.parameters, description: 'Current weather' } }]);
      assert.equal(sent.tool_choice, 'required');
      assert.equal(sent.parallel_tool_calls, true);

      chatUp.handle(() => jsonReply(200, chatJson('gpt-up', 'SF 18 C, München 11 C.', { input: 90, output: 10 })));
      const final = await client.responses.create({
        model: 'rx-chat',
        tools: [WEATHER],
        input: [
          { role: 'user', content: 'Weather in SF and München?' },
          ...(first.output as OpenAI.Responses.ResponseInputItem[]),
          { type: 'function_call_output', call_id: 'call_sf', output: '18 C' },
          { type: 'function_call_output', call_id: 'call_mu', output: '11 C' },
        ],
      });
      assert.equal(final.output_text, 'SF 18 C, München 11 C.');
      assert.deepEqual(chatUp.last().json().messages.slice(1), [
        {
          role: 'assistant',
          content: 'Checking.',
          tool_calls: [
            { id: 'call_sf', type: 'function', function: { name: 'get_weather', arguments: '{"city":"San Francisco"}' } },
            { id: 'call_mu', type: 'function', function: { name: 'get_weather', arguments: '{"city":"München"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_sf', content: '18 C' },
        { role: 'tool', tool_call_id: 'call_mu', content: '11 C' },
      ]);
    });

    test('image input and reasoning: an image_url part up, reasoning_content back as a reasoning item, and up again', async () => {
      chatUp.handle(() => jsonReply(200, chatJson('gpt-up', 'A dot.', { input: 30, output: 9 }, { reasoning: 'One pixel, so a dot.' })));
      const response = await client.responses.create({
        model: 'rx-chat',
        input: [{ role: 'user', content: [{ type: 'input_text', text: 'What is it?' }, { type: 'input_image', image_url: `data:image/png;base64,${PNG}`, detail: 'high' }] }],
      });
      assert.deepEqual(chatUp.last().json().messages, [
        { role: 'user', content: [{ type: 'text', text: 'What is it?' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}`, detail: 'high' } }] },
      ]);
      const reasoning = response.output[0] as OpenAI.Responses.ResponseReasoningItem;
      assert.deepEqual(reasoning.summary, [{ type: 'summary_text', text: 'One pixel, so a dot.' }]);
      assert.equal(response.output_text, 'A dot.');

      chatUp.handle(() => jsonReply(200, chatJson('gpt-up', 'Yes.', { input: 40, output: 1 })));
      await client.responses.create({ model: 'rx-chat', input: [...(response.output as OpenAI.Responses.ResponseInputItem[]), { role: 'user', content: 'Sure?' }] });
      assert.deepEqual(chatUp.last().json().messages[0], { role: 'assistant', content: 'A dot.', reasoning_content: 'One pixel, so a dot.' });
    });

    test('upstream errors: status and reason kept, in the OpenAI shape', async () => {
      chatUp.handle(() => jsonReply(429, chatError('Rate limit reached', 'requests', 'rate_limit_exceeded'), { 'retry-after': '3' }));
      await assert.rejects(client.responses.create({ model: 'rx-chat', input: 'hi' }), (error: unknown) => error instanceof OpenAI.RateLimitError && error.headers?.get('retry-after') === '3' && /Rate limit reached/.test(error.message));
    });
  });

  describe('a messages upstream', () => {
    test('text: system, default max_tokens, the response with cache reads and writes in usage', async () => {
      msgUp.handle(() => jsonReply(200, messagesJson('claude-up', 'Hello ✓', { input: 20, output: 3, cacheRead: 512, cacheCreation: 64 })));
      const response = await client.responses.create({ model: 'rx-claude', instructions: 'Be brief.', input: [{ role: 'developer', content: 'No emojis.' }, { role: 'user', content: 'Say hello' }], user: 'u-42' });
      const sent = msgUp.last();
      assert.equal(sent.path, '/v1/messages');
      assert.equal(sent.headers['x-api-key'], 'upstream-msg-secret');
      assert.deepEqual(sent.json(), {
        model: 'claude-up',
        max_tokens: 1000,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hello' }] }],
        system: [
          { type: 'text', text: 'Be brief.' },
          { type: 'text', text: 'No emojis.' },
        ],
        metadata: { user_id: 'u-42' },
      });
      assert.equal(response.output_text, 'Hello ✓');
      assert.equal(response.usage!.input_tokens, 20 + 512 + 64);
      assert.equal(response.usage!.input_tokens_details.cached_tokens, 512);
      assert.equal((response.usage!.input_tokens_details as { cache_write_tokens?: number }).cache_write_tokens, 64);
    });

    test('stream: text as it arrives, then response.completed', async () => {
      msgUp.handle(() => sseReply(messagesFrames('claude-up', ['Grüße ', 'aus ', 'Zürich 🙂'], { input: 9, output: 7 }), { delayMs: 2 }));
      const { types, text, final } = await collect(await client.responses.create({ model: 'rx-claude', input: 'Greet', stream: true }));
      assert.equal(text, 'Grüße aus Zürich 🙂');
      assert.equal(types.at(-1), 'response.completed');
      assert.equal(final.usage!.output_tokens, 7);
      assert.equal(msgUp.last().json().stream, true);
    });

    test('a tool round trip: tool_use blocks become function calls, outputs go back as tool_result blocks', async () => {
      msgUp.handle(() => sseReply(messagesFrames('claude-up', ['Checking both.'], { input: 40, output: 30 }, { tools: PARALLEL.map((t) => ({ ...t, id: t.id.replace('call', 'toolu') })) })));
      const first = await client.responses.stream({ model: 'rx-claude', input: 'Weather in SF and München?', tools: [WEATHER], tool_choice: { type: 'function', name: 'get_weather' }, parallel_tool_calls: false }).finalResponse();
      const calls = first.output.filter((i) => i.type === 'function_call') as OpenAI.Responses.ResponseFunctionToolCall[];
      assert.deepEqual(calls.map((c) => c.call_id), ['toolu_sf', 'toolu_mu']);
      const sent = msgUp.last().json();
      assert.deepEqual(sent.tools, [{ name: 'get_weather', input_schema: WEATHER.parameters, description: 'Current weather' }]);
      assert.deepEqual(sent.tool_choice, { type: 'tool', name: 'get_weather', disable_parallel_tool_use: true });

      msgUp.handle(() => jsonReply(200, messagesJson('claude-up', 'SF 18 C, München 11 C.', { input: 90, output: 10 })));
      const final = await client.responses.create({
        model: 'rx-claude',
        input: [
          { role: 'user', content: 'Weather in SF and München?' },
          ...(first.output as OpenAI.Responses.ResponseInputItem[]),
          { type: 'function_call_output', call_id: 'toolu_sf', output: '18 C' },
          { type: 'function_call_output', call_id: 'toolu_mu', output: [{ type: 'input_text', text: '11 C' }] },
          { role: 'user', content: 'Thanks' },
        ],
      });
      assert.equal(final.output_text, 'SF 18 C, München 11 C.');
      assert.deepEqual(msgUp.last().json().messages.slice(1), [
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Checking both.' },
            { type: 'tool_use', id: 'toolu_sf', name: 'get_weather', input: { city: 'San Francisco' } },
            { type: 'tool_use', id: 'toolu_mu', name: 'get_weather', input: { city: 'München' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_sf', content: '18 C' },
            { type: 'tool_result', tool_use_id: 'toolu_mu', content: [{ type: 'text', text: '11 C' }] },
            { type: 'text', text: 'Thanks' },
          ],
        },
      ]);
    });

    test('thinking comes back as a reasoning item whose encrypted_content returns the signature upstream', async () => {
      msgUp.handle(() => jsonReply(200, messagesJson('claude-up', '12231', { input: 30, output: 50 }, { thinking: { text: '27 × 453 = 12231.', signature: 'sig-abc' } })));
      const response = await client.responses.create({ model: 'rx-claude', input: 'What is 27 × 453?', reasoning: { effort: 'high', summary: 'auto' }, include: ['reasoning.encrypted_content'] });
      assert.deepEqual(msgUp.last().json().output_config, { effort: 'high' });
      const reasoning = response.output[0] as OpenAI.Responses.ResponseReasoningItem;
      assert.equal(reasoning.summary[0]!.text, '27 × 453 = 12231.');
      assert.equal(reasoning.encrypted_content, 'sig-abc');

      msgUp.handle(() => jsonReply(200, messagesJson('claude-up', 'Yes.', { input: 40, output: 1 })));
      await client.responses.create({ model: 'rx-claude', input: [{ role: 'user', content: 'What is 27 × 453?' }, ...(response.output as OpenAI.Responses.ResponseInputItem[]), { role: 'user', content: 'Sure?' }] });
      assert.deepEqual(msgUp.last().json().messages[1], {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: '27 × 453 = 12231.', signature: 'sig-abc' },
          { type: 'text', text: '12231' },
        ],
      });
    });

    test('images and namespaced functions: an image block up; a namespaced call comes back under its namespace', async () => {
      msgUp.handle(() => jsonReply(200, messagesJson('claude-up', '', { input: 30, output: 9 }, { tools: [{ id: 'toolu_1', name: 'agents__spawn', pieces: ['{"task": "look"}'] }] })));
      const response = await client.responses.create({
        model: 'rx-claude',
        input: [{ role: 'user', content: [{ type: 'input_image', image_url: `data:image/png;base64,${PNG}`, detail: 'auto' }, { type: 'input_text', text: 'Delegate this.' }] }],
        tools: [{ type: 'namespace', name: 'agents', description: 'Sub-agents', tools: [{ type: 'function', name: 'spawn', description: 'Start one', parameters: { type: 'object', properties: { task: { type: 'string' } } } }] } as unknown as OpenAI.Responses.Tool],
      });
      const sent = msgUp.last().json();
      assert.deepEqual(sent.messages[0].content[0], { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } });
      assert.deepEqual(sent.tools, [{ name: 'agents__spawn', input_schema: { type: 'object', properties: { task: { type: 'string' } } }, description: 'Sub-agents\n\nStart one' }]);
      const call = response.output[0] as OpenAI.Responses.ResponseFunctionToolCall;
      assert.deepEqual([call.name, call.namespace, JSON.parse(call.arguments)], ['spawn', 'agents', { task: 'look' }]);
    });

    test('upstream errors: an overloaded upstream is a 529 in the OpenAI shape with its reason', async () => {
      msgUp.handle(() => jsonReply(529, messagesError('overloaded_error', 'Overloaded')));
      await assert.rejects(client.responses.create({ model: 'rx-claude', input: 'hi' }), (error: unknown) => error instanceof OpenAI.APIError && error.status === 529 && error.code === 'overloaded_error' && /Overloaded/.test(error.message));
    });
  });
});
