// The official `openai` client (chat completions) against a started gateway whose model is served
// by a messages-protocol upstream (a fake on loopback): requests, answers, streams with and
// without usage, a full tool round trip with streamed parallel calls, images, thinking with its
// signature, usage numbers and every error status arrive translated, and a stream cut after the
// first byte ends in an error, not a hang.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import OpenAI from 'openai';
import { FakeUpstream, jsonReply, sseReply } from '../helpers/fake-upstream.ts';
import { GatewayProcess, isolateClientEnvironment } from '../helpers/gateway-process.ts';
import { messagesError, messagesFrames, messagesJson } from '../helpers/translation/protocol-frames.ts';
import { within } from '../helpers/wait-for.ts';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const WEATHER = { type: 'function' as const, function: { name: 'get_weather', description: 'Current weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } };

describe('openai client -> gateway -> messages-protocol upstream', () => {
  let upstream: FakeUpstream;
  let gateway: GatewayProcess;
  let client: OpenAI;
  let restoreEnv: () => void;

  before(async () => {
    restoreEnv = isolateClientEnvironment();
    upstream = await FakeUpstream.start();
    gateway = await GatewayProcess.start({
      providers: {
        providers: [
          {
            name: 'msgs-up',
            type: 'anthropic',
            baseUrl: upstream.url,
            apiKeyEnv: 'TR_MSG_KEY',
            retries: 0,
            defaultMaxTokens: 1000,
            timeoutMs: 20_000,
            models: [{ name: 'gpt-via-messages', upstreamModel: 'claude-up' }],
          },
        ],
      },
      env: { TR_MSG_KEY: 'upstream-secret-msg' },
    });
    const { key } = await gateway.createKey('admin', 'translation-openai');
    client = new OpenAI({ baseURL: `${gateway.textUrl}/v1`, apiKey: key, maxRetries: 0 });
  });
  beforeEach(() => upstream.reset());
  after(async () => {
    await gateway?.cleanup();
    await upstream?.close();
    restoreEnv?.();
  });

  test('plain text: the upstream gets a messages request; the client gets a completion with usage', async () => {
    upstream.handle(() => jsonReply(200, messagesJson('claude-up', 'Hello ✓', { input: 20, output: 3, cacheRead: 512, cacheCreation: 64 })));
    const completion = await client.chat.completions.create({
      model: 'gpt-via-messages',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Say hello' },
      ],
      temperature: 0.5,
      stop: ['###'],
    });
    const sent = upstream.last();
    assert.equal(sent.path, '/v1/messages');
    assert.equal(sent.headers['x-api-key'], 'upstream-secret-msg');
    assert.deepEqual(sent.json(), { model: 'claude-up', max_tokens: 1000, messages: [{ role: 'user', content: 'Say hello' }], system: 'Be brief.', temperature: 0.5, stop_sequences: ['###'] });
    assert.equal(completion.object, 'chat.completion');
    assert.equal(completion.choices[0]!.message.content, 'Hello ✓');
    assert.equal(completion.choices[0]!.finish_reason, 'stop');
    assert.equal(completion.usage!.prompt_tokens, 20 + 512 + 64);
    assert.equal(completion.usage!.prompt_tokens_details!.cached_tokens, 512);
    assert.equal(completion.usage!.completion_tokens, 3);
    assert.equal(completion.usage!.total_tokens, 599);
  });

  test('streaming: chunks as they come, usage only when asked for', async () => {
    upstream.handle(() => sseReply(messagesFrames('claude-up', ['Grüße ', 'aus ', 'Zürich 🙂'], { input: 9, output: 7 }), { delayMs: 2 }));
    const withUsage = await client.chat.completions.create({ model: 'gpt-via-messages', max_tokens: 50, stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'Greet' }] });
    let text = '';
    let usage: OpenAI.CompletionUsage | undefined | null;
    let finish: string | null = null;
    let chunks = 0;
    for await (const chunk of withUsage) {
      chunks += 1;
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
    }
    assert.equal(text, 'Grüße aus Zürich 🙂');
    assert.equal(finish, 'stop');
    assert.ok(chunks >= 5);
    assert.equal(usage!.prompt_tokens, 9);
    assert.equal(usage!.completion_tokens, 7);
    assert.equal(upstream.last().json().stream, true);
    assert.equal(upstream.last().json().max_tokens, 50);

    const without = await client.chat.completions.create({ model: 'gpt-via-messages', max_tokens: 50, stream: true, messages: [{ role: 'user', content: 'Greet' }] });
    for await (const chunk of without) assert.equal(chunk.usage ?? null, null, 'no usage chunk unless asked for');
  });

  test('a full tool round trip: parallel calls with streamed arguments, then both results', async () => {
    const tools = [
      { id: 'toolu_sf', name: 'get_weather', pieces: ['{"city": "San', ' Francisco"}'] },
      { id: 'toolu_mu', name: 'get_weather', pieces: ['{"city": "Mün', 'chen"}'] },
    ];
    upstream.handle(() => sseReply(messagesFrames('claude-up', ['Checking both.'], { input: 40, output: 30 }, { tools })));
    const stream = client.chat.completions.stream({ model: 'gpt-via-messages', tools: [WEATHER], tool_choice: 'required', parallel_tool_calls: true, messages: [{ role: 'user', content: 'Weather in SF and München?' }] });
    let argumentDeltas = 0;
    stream.on('tool_calls.function.arguments.delta', () => (argumentDeltas += 1));
    const completion = await stream.finalChatCompletion();
    const message = completion.choices[0]!.message;
    assert.equal(completion.choices[0]!.finish_reason, 'tool_calls');
    assert.equal(message.content, 'Checking both.');
    assert.deepEqual(
      message.tool_calls!.map((c) => (c.type === 'function' ? [c.id, c.function.name, JSON.parse(c.function.arguments)] : [])),
      [
        ['toolu_sf', 'get_weather', { city: 'San Francisco' }],
        ['toolu_mu', 'get_weather', { city: 'München' }],
      ],
    );
    assert.ok(argumentDeltas >= 4, `arguments arrived in ${argumentDeltas} deltas`);
    const sent = upstream.last().json();
    assert.deepEqual(sent.tools, [{ name: 'get_weather', input_schema: WEATHER.function.parameters, description: 'Current weather' }]);
    assert.deepEqual(sent.tool_choice, { type: 'any' });

    upstream.handle(() => jsonReply(200, messagesJson('claude-up', 'SF 18 C, München 11 C.', { input: 90, output: 10 })));
    const final = await client.chat.completions.create({
      model: 'gpt-via-messages',
      tools: [WEATHER],
      messages: [
        { role: 'user', content: 'Weather in SF and München?' },
        { role: 'assistant', content: message.content, tool_calls: message.tool_calls },
        { role: 'tool', tool_call_id: 'toolu_sf', content: '18 C' },
        { role: 'tool', tool_call_id: 'toolu_mu', content: '11 C' },
      ],
    });
    assert.equal(final.choices[0]!.message.content, 'SF 18 C, München 11 C.');
    assert.deepEqual(upstream.last().json().messages.slice(1), [
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
          { type: 'tool_result', tool_use_id: 'toolu_mu', content: '11 C' },
        ],
      },
    ]);
  });

  test('an image input (data: URL and https URL) reaches the upstream as image blocks', async () => {
    upstream.handle(() => jsonReply(200, messagesJson('claude-up', 'A pixel and a cat.', { input: 700, output: 6 })));
    await client.chat.completions.create({
      model: 'gpt-via-messages',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Describe both.' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
          ],
        },
      ],
    });
    assert.deepEqual(upstream.last().json().messages[0].content, [
      { type: 'text', text: 'Describe both.' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
      { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
    ]);
  });

  test('thinking comes back as reasoning_content and thinking_blocks, and returns with its signature', async () => {
    upstream.handle(() => jsonReply(200, messagesJson('claude-up', '12231', { input: 30, output: 50 }, { thinking: { text: '27 × 453 …', signature: 'sig-abc' } })));
    const completion = await client.chat.completions.create({ model: 'gpt-via-messages', reasoning_effort: 'high', messages: [{ role: 'user', content: '27 × 453?' }] });
    assert.deepEqual(upstream.last().json().output_config, { effort: 'high' });
    const message = completion.choices[0]!.message as OpenAI.ChatCompletionMessage & { reasoning_content?: string; thinking_blocks?: unknown[] };
    assert.equal(message.reasoning_content, '27 × 453 …');
    assert.deepEqual(message.thinking_blocks, [{ type: 'thinking', thinking: '27 × 453 …', signature: 'sig-abc' }]);

    upstream.handle(() => jsonReply(200, messagesJson('claude-up', 'ok', { input: 40, output: 1 })));
    await client.chat.completions.create({
      model: 'gpt-via-messages',
      messages: [{ role: 'user', content: '27 × 453?' }, message as OpenAI.ChatCompletionAssistantMessageParam, { role: 'user', content: 'Thanks' }],
    });
    assert.deepEqual(upstream.last().json().messages[1].content, [
      { type: 'thinking', thinking: '27 × 453 …', signature: 'sig-abc' },
      { type: 'text', text: '12231' },
    ]);
  });

  const statuses: Array<[number, string, new (...args: any[]) => Error, number?]> = [
    [400, 'invalid_request_error', OpenAI.BadRequestError],
    [403, 'permission_error', OpenAI.PermissionDeniedError],
    [404, 'not_found_error', OpenAI.NotFoundError],
    [413, 'request_too_large', OpenAI.APIError],
    [429, 'rate_limit_error', OpenAI.RateLimitError],
    [500, 'api_error', OpenAI.InternalServerError],
    [529, 'overloaded_error', OpenAI.InternalServerError],
    [401, 'authentication_error', OpenAI.InternalServerError, 502],
  ];
  for (const [status, type, ErrorClass, clientStatus] of statuses) {
    test(`an upstream ${status} ${type} reaches the client as ${clientStatus ?? status} in the OpenAI envelope`, async () => {
      upstream.handle(() => jsonReply(status, messagesError(type, `upstream says ${status}`)));
      await assert.rejects(client.chat.completions.create({ model: 'gpt-via-messages', messages: [{ role: 'user', content: 'x' }] }), (error: unknown) => {
        assert.ok(error instanceof ErrorClass, String(error));
        const apiError = error as InstanceType<typeof OpenAI.APIError>;
        assert.equal(apiError.status, clientStatus ?? status);
        if (!clientStatus) {
          assert.equal(apiError.code, type);
          assert.match(apiError.message, new RegExp(`upstream says ${status}`));
        } else assert.equal(apiError.code, 'upstream_auth_failed');
        return true;
      });
    });
  }

  test('a field the messages protocol lacks is a 400 naming it; nothing is sent upstream', async () => {
    await assert.rejects(client.chat.completions.create({ model: 'gpt-via-messages', n: 2, messages: [{ role: 'user', content: 'x' }] }), (error: unknown) => {
      assert.ok(error instanceof OpenAI.BadRequestError);
      assert.equal(error.param, 'n');
      assert.match(error.message, /`n` cannot be translated/);
      return true;
    });
    assert.equal(upstream.requests.length, 0);
  });

  test('a stream cut after the first byte ends with an error the SDK raises, not a hang', async () => {
    upstream.handle(() => sseReply(messagesFrames('claude-up', ['Half an ', 'answer'], { input: 5, output: 5 }).slice(0, 5), { then: 'destroy' }));
    const stream = await client.chat.completions.create({ model: 'gpt-via-messages', stream: true, messages: [{ role: 'user', content: 'x' }] });
    let text = '';
    await within(
      assert.rejects(
        (async () => {
          for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
        })(),
        (error: unknown) => {
          assert.ok(error instanceof OpenAI.APIError, String(error));
          assert.match(error.message, /the answer is (cut off|incomplete)/);
          return true;
        },
      ),
      15_000,
      'the SDK to report the cut stream',
    );
    assert.equal(text, 'Half an answer');
  });
});
