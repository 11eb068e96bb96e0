// The official `@anthropic-ai/sdk` (messages protocol) against a started gateway whose model is
// served by a chat-completions upstream (a fake on loopback): requests, answers, streams, a full
// tool round trip with streamed parallel calls, images, usage and every error status arrive
// translated, and a stream cut after the first byte ends in an error, not a hang.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { FakeUpstream, Gate, jsonReply, sseReply } from '../helpers/fake-upstream.ts';
import { GatewayProcess, isolateClientEnvironment } from '../helpers/gateway-process.ts';
import { chatError, chatFrames, chatJson } from '../helpers/translation/protocol-frames.ts';
import { within } from '../helpers/wait-for.ts';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const WEATHER_TOOL = { name: 'get_weather', description: 'Current weather', input_schema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] } };

describe('@anthropic-ai/sdk -> gateway -> chat-completions upstream', () => {
  let upstream: FakeUpstream;
  let gateway: GatewayProcess;
  let client: Anthropic;
  let restoreEnv: () => void;

  before(async () => {
    restoreEnv = isolateClientEnvironment();
    upstream = await FakeUpstream.start();
    gateway = await GatewayProcess.start({
      providers: {
        providers: [
          { name: 'chat-up', type: 'openai', baseUrl: `${upstream.url}/v1`, apiKeyEnv: 'TR_CHAT_KEY', retries: 0, timeoutMs: 20_000, models: [{ name: 'claude-via-chat', upstreamModel: 'gpt-up' }] },
        ],
      },
      env: { TR_CHAT_KEY: 'upstream-secret-chat' },
    });
    const { key } = await gateway.createKey('admin', 'translation-anthropic');
    // SDK 1.12 sends `apiKey` as Authorization: Bearer.
    client = new Anthropic({ baseURL: gateway.textUrl, apiKey: key, maxRetries: 0 });
  });
  beforeEach(() => upstream.reset());
  after(async () => {
    await gateway?.cleanup();
    await upstream?.close();
    restoreEnv?.();
  });

  test('plain text: the upstream gets a chat request; the client gets a message with usage', async () => {
    upstream.handle(() => jsonReply(200, chatJson('gpt-up', 'Bonjour ✓', { input: 30, output: 4, cacheRead: 1024 })));
    const message = await client.messages.create({
      model: 'claude-via-chat',
      max_tokens: 256,
      system: 'Answer in French.',
      stop_sequences: ['###'],
      messages: [{ role: 'user', content: 'Say hello' }],
    });
    const sent = upstream.last();
    assert.equal(sent.path, '/v1/chat/completions');
    assert.equal(sent.headers.authorization, 'Bearer upstream-secret-chat');
    assert.deepEqual(sent.json(), {
      model: 'gpt-up',
      messages: [
        { role: 'system', content: 'Answer in French.' },
        { role: 'user', content: 'Say hello' },
      ],
      max_tokens: 256,
      stop: ['###'],
    });
    assert.equal(message.type, 'message');
    assert.deepEqual(message.content, [{ type: 'text', text: 'Bonjour ✓' }]);
    assert.equal(message.stop_reason, 'end_turn');
    assert.equal(message.usage.input_tokens, 30);
    assert.equal(message.usage.cache_read_input_tokens, 1024);
    assert.equal(message.usage.output_tokens, 4);
  });

  test('streaming: events in the messages grammar, text and usage intact', async () => {
    upstream.handle(() => sseReply(chatFrames('gpt-up', ['Grüße ', 'aus ', 'Zürich 🙂'], { input: 12, output: 6, cacheRead: 100 }), { delayMs: 2 }));
    const stream = client.messages.stream({ model: 'claude-via-chat', max_tokens: 100, messages: [{ role: 'user', content: 'Greet me' }] });
    const types: string[] = [];
    stream.on('streamEvent', (event) => types.push(event.type));
    const final = await stream.finalMessage();
    assert.equal(upstream.last().json().stream, true);
    assert.deepEqual(upstream.last().json().stream_options, { include_usage: true });
    assert.deepEqual(final.content, [{ type: 'text', text: 'Grüße aus Zürich 🙂' }]);
    assert.equal(types[0], 'message_start');
    assert.equal(types.at(-1), 'message_stop');
    assert.equal(final.stop_reason, 'end_turn');
    assert.equal(final.usage.input_tokens, 12);
    assert.equal(final.usage.cache_read_input_tokens, 100);
    assert.equal(final.usage.output_tokens, 6);
  });

  test('a full tool round trip: parallel calls with streamed arguments, then both results', async () => {
    const tools = [
      { id: 'call_sf', name: 'get_weather', pieces: ['{"ci', 'ty": "San ', 'Francisco"}'] },
      { id: 'call_mu', name: 'get_weather', pieces: ['{"city"', ': "München"}'] },
    ];
    upstream.handle(() => sseReply(chatFrames('gpt-up', ['Checking.'], { input: 50, output: 20 }, { tools })));
    const first = client.messages.stream({ model: 'claude-via-chat', max_tokens: 500, tools: [WEATHER_TOOL], tool_choice: { type: 'auto' }, messages: [{ role: 'user', content: 'Weather in SF and München?' }] });
    const partials: string[] = [];
    first.on('inputJson', (partial) => partials.push(partial));
    const answer = await first.finalMessage();
    assert.equal(answer.stop_reason, 'tool_use');
    const uses = answer.content.filter((b) => b.type === 'tool_use');
    assert.deepEqual(
      uses.map((b) => [b.id, b.name, b.input]),
      [
        ['call_sf', 'get_weather', { city: 'San Francisco' }],
        ['call_mu', 'get_weather', { city: 'München' }],
      ],
    );
    assert.ok(partials.length >= 4, 'the arguments arrived in several deltas');
    const sentTools = upstream.last().json();
    assert.deepEqual(sentTools.tools, [{ type: 'function', function: { name: 'get_weather', parameters: WEATHER_TOOL.input_schema, description: 'Current weather' } }]);
    assert.equal(sentTools.tool_choice, 'auto');

    upstream.handle(() => jsonReply(200, chatJson('gpt-up', 'SF 18 C, München 11 C.', { input: 90, output: 12 })));
    const final = await client.messages.create({
      model: 'claude-via-chat',
      max_tokens: 500,
      tools: [WEATHER_TOOL],
      messages: [
        { role: 'user', content: 'Weather in SF and München?' },
        { role: 'assistant', content: answer.content },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'call_sf', content: '18 C' },
            { type: 'tool_result', tool_use_id: 'call_mu', content: '11 C' },
          ],
        },
      ],
    });
    assert.deepEqual(final.content, [{ type: 'text', text: 'SF 18 C, München 11 C.' }]);
    const turn = upstream.last().json().messages;
    assert.deepEqual(turn.slice(1), [
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

  test('an image input (base64 and URL) reaches the upstream as image_url parts', async () => {
    upstream.handle(() => jsonReply(200, chatJson('gpt-up', 'A pixel and a cat.', { input: 800, output: 6 })));
    await client.messages.create({
      model: 'claude-via-chat',
      max_tokens: 50,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
            { type: 'text', text: 'Describe both.' },
          ],
        },
      ],
    });
    assert.deepEqual(upstream.last().json().messages[0].content, [
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
      { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
      { type: 'text', text: 'Describe both.' },
    ]);
  });

  const statuses: Array<[number, new (...args: any[]) => Error, string, number?]> = [
    [400, Anthropic.BadRequestError, 'invalid_request_error'],
    [403, Anthropic.PermissionDeniedError, 'permission_error'],
    [404, Anthropic.NotFoundError, 'not_found_error'],
    [429, Anthropic.RateLimitError, 'rate_limit_error'],
    [500, Anthropic.InternalServerError, 'api_error'],
    [503, Anthropic.InternalServerError, 'api_error'],
    // The provider refusing the gateway's own key is the gateway's fault: 502, not 401.
    [401, Anthropic.InternalServerError, 'api_error', 502],
  ];
  for (const [status, ErrorClass, type, clientStatus] of statuses) {
    test(`an upstream ${status} reaches the client as ${clientStatus ?? status} ${type}`, async () => {
      upstream.handle(() => jsonReply(status, chatError(`upstream says ${status}`, 'invalid_request_error', 'some_code')));
      await assert.rejects(client.messages.create({ model: 'claude-via-chat', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }), (error: unknown) => {
        assert.ok(error instanceof ErrorClass, String(error));
        const apiError = error as InstanceType<typeof Anthropic.APIError>;
        assert.equal(apiError.status, clientStatus ?? status);
        const body = apiError.error as { type: string; error: { type: string; message: string } };
        assert.equal(body.type, 'error');
        assert.equal(body.error.type, type);
        if (!clientStatus) assert.equal(body.error.message, `upstream says ${status}`);
        return true;
      });
    });
  }

  test('a field the chat protocol lacks is a 400 naming it; nothing is sent upstream', async () => {
    await assert.rejects(
      client.messages.create({ model: 'claude-via-chat', max_tokens: 10, top_k: 3, messages: [{ role: 'user', content: 'x' }] } as Anthropic.MessageCreateParamsNonStreaming),
      (error: unknown) => {
        assert.ok(error instanceof Anthropic.BadRequestError);
        assert.match((error.error as { error: { message: string } }).error.message, /`top_k` cannot be translated/);
        return true;
      },
    );
    assert.equal(upstream.requests.length, 0);
  });

  test('a client that leaves mid-stream makes the gateway abort the upstream call', async () => {
    const never = new Gate();
    upstream.handle(() => sseReply([...chatFrames('gpt-up', ['Long ', 'answer'], { input: 5, output: 5 }).slice(0, 3), { until: never.promise }]));
    const controller = new AbortController();
    const stream = client.messages.stream({ model: 'claude-via-chat', max_tokens: 50, messages: [{ role: 'user', content: 'x' }] }, { signal: controller.signal });
    await new Promise<void>((resolve) => stream.on('text', () => resolve()));
    controller.abort();
    await stream.finalMessage().catch(() => undefined);
    const seen = await upstream.waitForRequests(1);
    assert.equal(await within(seen.ended, 10_000, 'the upstream exchange to end'), 'aborted-by-client');
    never.open();
  });

  test('a stream cut after the first byte ends with an error the SDK raises, not a hang', async () => {
    upstream.handle(() => sseReply(chatFrames('gpt-up', ['Half an ', 'answer'], { input: 5, output: 5 }).slice(0, 3), { then: 'destroy' }));
    const stream = client.messages.stream({ model: 'claude-via-chat', max_tokens: 50, messages: [{ role: 'user', content: 'x' }] });
    const texts: string[] = [];
    stream.on('text', (t) => texts.push(t));
    await within(
      assert.rejects(stream.finalMessage(), (error: unknown) => {
        assert.ok(error instanceof Anthropic.APIError, String(error));
        assert.match(String((error as Error).message), /the answer is (cut off|incomplete)/);
        return true;
      }),
      15_000,
      'the SDK to report the cut stream',
    );
    assert.equal(texts.join(''), 'Half an answer');
  });
});
