// Same-protocol pass-through against a fake upstream of each protocol: the upstream receives the
// client's body bytes, protocol headers and query, and the provider's own key (never the client's
// gateway key); answers and streams come back byte for byte; a client that leaves mid-stream
// makes the gateway abort the upstream call.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { FakeUpstream, Gate, jsonReply, sseReply, type RecordedRequest, type Step } from '../helpers/fake-upstream.ts';
import { within } from '../helpers/wait-for.ts';
import { GatewayProcess, isolateClientEnvironment, parseSse, readResponse } from '../helpers/gateway-process.ts';

const OPENAI_UPSTREAM_KEY = 'upstream-openai-secret-0001';
const ANTHROPIC_UPSTREAM_KEY = 'upstream-anthropic-secret-0002';

const chunk = (body: unknown) => `data: ${JSON.stringify(body)}\n\n`;
const event = (name: string, body: unknown) => `event: ${name}\ndata: ${JSON.stringify(body)}\n\n`;

function chatChunk(content: string | null, extra: Record<string, unknown> = {}) {
  return { id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 1, model: 'gpt-pass', choices: [{ index: 0, delta: content === null ? {} : { content }, finish_reason: content === null ? 'stop' : null }], ...extra };
}
const USAGE_CHUNK = { id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 1, model: 'gpt-pass', choices: [], usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 } };

describe('pass-through to same-protocol upstreams', () => {
  let upstream: FakeUpstream;
  let gateway: GatewayProcess;
  let key: string;
  let restoreEnv: () => void;

  before(async () => {
    restoreEnv = isolateClientEnvironment();
    upstream = await FakeUpstream.start();
    gateway = await GatewayProcess.start({
      providers: {
        providers: [
          {
            name: 'up-openai',
            type: 'openai',
            baseUrl: `${upstream.url}/v1`,
            apiKeyEnv: 'E2E_OPENAI_UPSTREAM_KEY',
            timeoutMs: 20_000,
            models: ['gpt-pass', { name: 'gpt-alias', upstreamModel: 'gpt-real-name' }, { name: 'img-pass', kind: 'image' }],
          },
          { name: 'up-anthropic', type: 'anthropic', baseUrl: upstream.url, apiKeyEnv: 'E2E_ANTHROPIC_UPSTREAM_KEY', timeoutMs: 20_000, models: ['claude-pass'] },
        ],
      },
      env: { E2E_OPENAI_UPSTREAM_KEY: OPENAI_UPSTREAM_KEY, E2E_ANTHROPIC_UPSTREAM_KEY: ANTHROPIC_UPSTREAM_KEY },
    });
    key = (await gateway.createKey('admin', 'passthrough')).key;
  });

  beforeEach(() => upstream.reset());

  after(async () => {
    await gateway?.cleanup();
    await upstream?.close();
    restoreEnv?.();
  });

  /** The gateway key must never leave the gateway: not in any header, not in the body. */
  function assertNoGatewayKey(request: RecordedRequest): void {
    for (const [name, value] of Object.entries(request.headers)) {
      assert.ok(!String(value).includes(key), `header ${name} carries the client's gateway key`);
      assert.ok(!String(value).includes(key.slice(3)), `header ${name} carries part of the client's gateway key`);
    }
    assert.ok(!request.body.includes(key), 'the body carries the gateway key');
  }

  const post = (path: string, body: string, headers: Record<string, string> = {}, signal?: AbortSignal) =>
    fetch(`${gateway.textUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, ...headers }, body, signal });

  describe('chat-completions upstream (type openai)', () => {
    test('JSON: the upstream gets the exact body bytes and its own key; the answer comes back byte for byte', async () => {
      // Odd spacing, key order, a non-ASCII string and an unknown field: re-serialising would change the bytes.
      const body = '{ "messages" : [ {"role":"user", "content":"h\u00e9llo \u2713 \\u00e9"} ],\n  "model":"gpt-pass", "temperature": 0.50, "x_vendor_field": {"b":1,"a":2} }';
      const answer = '{"id":"chatcmpl-1",  "object":"chat.completion","model":"gpt-pass","choices":[{"index":0,"message":{"role":"assistant","content":"ok \u2713"},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}';
      upstream.handle(() => jsonReply(200, answer));
      const response = await post('/v1/chat/completions', body);
      const read = await readResponse(response);
      assert.equal(read.status, 200);
      assert.equal(read.text, answer);
      assert.equal(read.headers.get('x-gateway-provider'), 'up-openai');
      const seen = upstream.last();
      assert.equal(seen.method, 'POST');
      assert.equal(seen.path, '/v1/chat/completions');
      assert.ok(seen.body.equals(Buffer.from(body)), `upstream body differs:\n${seen.body.toString()}`);
      assert.equal(seen.headers.authorization, `Bearer ${OPENAI_UPSTREAM_KEY}`);
      assert.equal(seen.headers['x-api-key'], undefined);
      assert.match(String(seen.headers['content-type']), /application\/json/);
      assertNoGatewayKey(seen);
    });

    test('stream with include_usage: body unchanged, stream relayed byte for byte as it arrives', async () => {
      const body = JSON.stringify({ model: 'gpt-pass', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'stream it' }] });
      // A 3-byte character cut across two writes: a relay that decodes per chunk would mangle it.
      const priceEvent = Buffer.from(chunk(chatChunk('price 5€')));
      const cut = priceEvent.indexOf(Buffer.from('€')) + 1;
      const gate = new Gate();
      const pieces: Array<Buffer | Step> = [
        Buffer.from(chunk(chatChunk('first '))),
        { until: gate.promise },
        priceEvent.subarray(0, cut),
        priceEvent.subarray(cut),
        Buffer.from(': keep-alive comment\n\n'),
        Buffer.from(chunk(chatChunk(null))),
        Buffer.from(chunk(USAGE_CHUNK) + 'data: [DONE]\n\n'),
      ];
      const sent = Buffer.concat(pieces.filter((p): p is Buffer => Buffer.isBuffer(p)));
      upstream.handle(() => sseReply(pieces));
      const response = await post('/v1/chat/completions', body);
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /text\/event-stream/);
      const reader = response.body!.getReader();
      const received: Buffer[] = [];
      // The first event arrives while the upstream is still holding the rest back: nothing is buffered.
      while (Buffer.concat(received).length < (pieces[0] as Buffer).length) {
        const { value, done } = await reader.read();
        assert.ok(!done, 'stream ended before the first event');
        received.push(Buffer.from(value));
      }
      assert.ok(Buffer.concat(received).equals(pieces[0] as Buffer));
      gate.open();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        received.push(Buffer.from(value));
      }
      const all = Buffer.concat(received);
      assert.ok(all.equals(sent), `stream differs:\n${all.toString()}\n---\n${sent.toString()}`);
      const seen = upstream.last();
      assert.ok(seen.body.equals(Buffer.from(body)), 'no rewrite when the client already asked for usage');
      assertNoGatewayKey(seen);
      assert.equal(await within(seen.ended, 10_000, 'the upstream exchange to end'), 'completed');
    });

    test('stream without include_usage: the gateway asks upstream for usage and hides the usage chunk', async () => {
      const request = { model: 'gpt-pass', stream: true, messages: [{ role: 'user', content: 'no usage asked' }], temperature: 0.2 };
      const events = [chunk(chatChunk('a')), chunk(chatChunk('b')), chunk(chatChunk(null)), chunk(USAGE_CHUNK), 'data: [DONE]\n\n'];
      upstream.handle(() => sseReply(events));
      const read = await readResponse(await post('/v1/chat/completions', JSON.stringify(request)));
      assert.equal(read.status, 200);
      const seen = upstream.last().json();
      assert.deepEqual(seen, { ...request, stream_options: { include_usage: true } });
      assert.equal(read.text, events.filter((e) => !e.includes('"usage"')).join(''), 'every other event is relayed unchanged');
      assert.ok(!parseSse(read.text).some((e) => e.data.includes('"usage"')));
    });

    test(
      'stream without include_usage: SSE comments (keep-alives) from upstream still reach the client',
      async () => {
        const events = [': OPENROUTER PROCESSING\n\n', chunk(chatChunk('a')), ': keep-alive\n\n', chunk(chatChunk(null)), chunk(USAGE_CHUNK), 'data: [DONE]\n\n'];
        upstream.handle(() => sseReply(events));
        const read = await readResponse(await post('/v1/chat/completions', JSON.stringify({ model: 'gpt-pass', stream: true, messages: [{ role: 'user', content: 'x' }] })));
        assert.equal(read.text, events.filter((e) => !e.includes('"usage"')).join(''));
      },
    );

    test('a public model name mapped to another upstream name changes only the model field', async () => {
      const request = { model: 'gpt-alias', messages: [{ role: 'user', content: 'alias' }], max_tokens: 5 };
      upstream.handle(() => jsonReply(200, { id: 'x', object: 'chat.completion', model: 'gpt-real-name', choices: [] }));
      const response = await post('/v1/chat/completions', JSON.stringify(request));
      assert.equal(response.status, 200);
      await response.arrayBuffer();
      assert.deepEqual(upstream.last().json(), { ...request, model: 'gpt-real-name' });
    });

    test('the openai client streams through the gateway from the fake upstream', async () => {
      const client = new OpenAI({ baseURL: `${gateway.textUrl}/v1`, apiKey: key, maxRetries: 0 });
      upstream.handle(() => sseReply([chunk(chatChunk('Hello')), chunk(chatChunk(' world')), chunk(chatChunk(null)), chunk(USAGE_CHUNK), 'data: [DONE]\n\n'], { delayMs: 5 }));
      const stream = await client.chat.completions.create({ model: 'gpt-pass', messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } });
      let text = '';
      let usage: OpenAI.CompletionUsage | undefined;
      for await (const part of stream) {
        text += part.choices[0]?.delta.content ?? '';
        usage = part.usage ?? usage;
      }
      assert.equal(text, 'Hello world');
      assert.deepEqual(usage, USAGE_CHUNK.usage);
      assert.equal(upstream.last().headers.authorization, `Bearer ${OPENAI_UPSTREAM_KEY}`);
    });

    test('a client that disconnects mid-stream makes the gateway abort the upstream request', async () => {
      upstream.handle(() => sseReply([chunk(chatChunk('one')), chunk(chatChunk('two'))], { then: 'hang' }));
      const controller = new AbortController();
      const response = await post('/v1/chat/completions', JSON.stringify({ model: 'gpt-pass', stream: true, messages: [{ role: 'user', content: 'x' }] }), {}, controller.signal);
      const reader = response.body!.getReader();
      const first = await reader.read();
      assert.ok(!first.done && Buffer.from(first.value).toString().includes('one'));
      const seen = upstream.last();
      assert.equal(seen.end, undefined, 'the upstream exchange is still open before the client leaves');
      controller.abort();
      assert.equal(await within(seen.ended, 10_000, 'the upstream exchange to end'), 'aborted-by-client');
    });

    test('the image API passes openai-type image models through', async () => {
      const body = '{"model":"img-pass","prompt":"a cat",  "size":"64x64","response_format":"b64_json"}';
      const answer = '{"created":1,"data":[{"b64_json":"iVBORw0KGgo="}]}';
      upstream.handle(() => jsonReply(200, answer));
      const response = await fetch(`${gateway.imageUrl}/v1/images/generations`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body });
      assert.equal(response.status, 200);
      assert.equal(await response.text(), answer);
      const seen = upstream.last();
      assert.equal(seen.path, '/v1/images/generations');
      assert.ok(seen.body.equals(Buffer.from(body)));
      assert.equal(seen.headers.authorization, `Bearer ${OPENAI_UPSTREAM_KEY}`);
    });
  });

  describe('messages upstream (type anthropic)', () => {
    const messageJson = (text: string) => ({ id: 'msg_fake', type: 'message', role: 'assistant', model: 'claude-pass', content: [{ type: 'text', text }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 9, output_tokens: 4 } });
    const streamEvents = [
      event('message_start', { type: 'message_start', message: { ...messageJson(''), content: [], stop_reason: null, usage: { input_tokens: 9, output_tokens: 1 } } }),
      event('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
      event('ping', { type: 'ping' }),
      event('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Bonjour ' } }),
      event('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'à tous' } }),
      event('content_block_stop', { type: 'content_block_stop', index: 0 }),
      event('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 4 } }),
      event('message_stop', { type: 'message_stop' }),
    ];

    test('JSON with ?beta=true: query, anthropic-version/-beta, exact body and the provider key reach upstream', async () => {
      const body = '{"model":"claude-pass","max_tokens":64,  "messages":[{"role":"user","content":"Gr\u00fc\u00df dich"}],"metadata":{"user_id":"u-1"}}';
      const answer = JSON.stringify(messageJson('Hallo'), null, 1);
      upstream.handle(() => jsonReply(200, answer));
      const response = await fetch(`${gateway.textUrl}/v1/messages?beta=true`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key, 'anthropic-version': '2023-06-01', 'anthropic-beta': 'prompt-caching-2024-07-31,fine-grained-tool-streaming-2025-05-14' },
        body,
      });
      const read = await readResponse(response);
      assert.equal(read.status, 200, read.text);
      assert.equal(read.text, answer);
      const seen = upstream.last();
      assert.equal(seen.path, '/v1/messages?beta=true');
      assert.ok(seen.body.equals(Buffer.from(body)), `upstream body differs: ${seen.body}`);
      assert.equal(seen.headers['anthropic-version'], '2023-06-01');
      assert.equal(seen.headers['anthropic-beta'], 'prompt-caching-2024-07-31,fine-grained-tool-streaming-2025-05-14');
      assert.equal(seen.headers['x-api-key'], ANTHROPIC_UPSTREAM_KEY);
      assert.equal(seen.headers.authorization, undefined);
      assertNoGatewayKey(seen);
    });

    test('a bearer-authenticated client still reaches upstream with only the provider key', async () => {
      upstream.handle(() => jsonReply(200, messageJson('ok')));
      const response = await post('/v1/messages', JSON.stringify({ model: 'claude-pass', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }), { 'anthropic-version': '2023-06-01' });
      assert.equal(response.status, 200);
      await response.arrayBuffer();
      const seen = upstream.last();
      assert.equal(seen.headers['x-api-key'], ANTHROPIC_UPSTREAM_KEY);
      assert.equal(seen.headers.authorization, undefined);
      assertNoGatewayKey(seen);
    });

    test('stream: relayed byte for byte, event by event as the upstream sends them', async () => {
      const gate = new Gate();
      upstream.handle(() => sseReply([streamEvents.slice(0, 3).join(''), { until: gate.promise }, ...streamEvents.slice(3)]));
      const body = JSON.stringify({ model: 'claude-pass', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'stream' }] });
      const response = await post('/v1/messages', body, { 'anthropic-version': '2023-06-01' });
      assert.equal(response.status, 200);
      const reader = response.body!.getReader();
      const head = Buffer.from(streamEvents.slice(0, 3).join(''));
      const received: Buffer[] = [];
      while (Buffer.concat(received).length < head.length) {
        const { value, done } = await reader.read();
        assert.ok(!done);
        received.push(Buffer.from(value));
      }
      assert.ok(Buffer.concat(received).equals(head), 'the first events arrive before the upstream sends the rest');
      gate.open();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        received.push(Buffer.from(value));
      }
      assert.equal(Buffer.concat(received).toString('utf8'), streamEvents.join(''));
      assert.ok(upstream.last().body.equals(Buffer.from(body)));
    });

    test('the messages client (x-api-key) streams through the gateway; its anthropic-version reaches upstream', async () => {
      const client = new Anthropic({ baseURL: gateway.textUrl, apiKey: null, authToken: null, defaultHeaders: { 'x-api-key': key, 'anthropic-beta': 'e2e-beta-1' }, maxRetries: 0 });
      upstream.handle(() => sseReply(streamEvents, { delayMs: 5 }));
      const final = await client.messages.stream({ model: 'claude-pass', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
      assert.deepEqual(final.content, [{ type: 'text', text: 'Bonjour à tous' }]);
      assert.equal(final.usage.output_tokens, 4);
      const seen = upstream.last();
      assert.equal(seen.path, '/v1/messages');
      assert.match(String(seen.headers['anthropic-version']), /^\d{4}-\d{2}-\d{2}$/);
      assert.equal(seen.headers['anthropic-beta'], 'e2e-beta-1');
      assertNoGatewayKey(seen);
    });

    test('count_tokens passes through to /v1/messages/count_tokens', async () => {
      upstream.handle(() => jsonReply(200, { input_tokens: 42 }));
      const response = await post('/v1/messages/count_tokens', JSON.stringify({ model: 'claude-pass', messages: [{ role: 'user', content: 'count' }] }), { 'anthropic-version': '2023-06-01' });
      assert.equal(response.status, 200);
      assert.deepEqual(await response.json(), { input_tokens: 42 });
      assert.equal(upstream.last().path, '/v1/messages/count_tokens');
    });

    test('a client that disconnects mid-stream makes the gateway abort the upstream request', async () => {
      upstream.handle(() => sseReply(streamEvents.slice(0, 4), { then: 'hang' }));
      const controller = new AbortController();
      const response = await post('/v1/messages', JSON.stringify({ model: 'claude-pass', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'x' }] }), { 'anthropic-version': '2023-06-01' }, controller.signal);
      const reader = response.body!.getReader();
      const first = await reader.read();
      assert.ok(!first.done);
      const seen = upstream.last();
      assert.equal(seen.end, undefined);
      controller.abort();
      assert.equal(await within(seen.ended, 10_000, 'the upstream exchange to end'), 'aborted-by-client');
    });
  });

  describe('across protocols (translated since issue 4; details in translation-*.test.ts)', () => {
    test('a messages-upstream model on /v1/chat/completions is translated: a messages request goes up, a chat completion comes back', async () => {
      upstream.handle(() => jsonReply(200, { id: 'msg_x', type: 'message', role: 'assistant', model: 'claude-pass', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 2, output_tokens: 1 } }));
      const response = await post('/v1/chat/completions', JSON.stringify({ model: 'claude-pass', messages: [{ role: 'user', content: 'x' }] }));
      assert.equal(response.status, 200);
      const body = (await response.json()) as { object: string; choices: Array<{ message: { content: string } }> };
      assert.equal(body.object, 'chat.completion');
      assert.equal(body.choices[0]!.message.content, 'ok');
      assert.equal(upstream.last().path, '/v1/messages');
      assertNoGatewayKey(upstream.last());
    });

    test('a chat-completions-upstream model on /v1/messages is translated: a chat request goes up, a message comes back', async () => {
      upstream.handle(() => jsonReply(200, { id: 'chatcmpl-x', object: 'chat.completion', created: 1, model: 'gpt-pass', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }], usage: { prompt_tokens: 2, completion_tokens: 1, total_tokens: 3 } }));
      const response = await post('/v1/messages', JSON.stringify({ model: 'gpt-pass', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }), { 'anthropic-version': '2023-06-01' });
      assert.equal(response.status, 200);
      const body = (await response.json()) as { type: string; content: Array<{ type: string; text: string }> };
      assert.equal(body.type, 'message');
      assert.deepEqual(body.content, [{ type: 'text', text: 'ok' }]);
      assert.equal(upstream.last().path, '/v1/chat/completions');
      assertNoGatewayKey(upstream.last());
    });
  });
});
