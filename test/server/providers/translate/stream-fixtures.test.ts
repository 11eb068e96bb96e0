// Table-driven: every recorded-shape stream in test/fixtures/sse goes through the translated-stream
// relay in four chunkings (whole, per line, 7 bytes, every byte: multi-byte characters get split);
// the client's view must be the expected one and identical across chunkings.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { translatorBetween } from '../../../../server/protocols/translation.ts';
import { accumulateChat, accumulateMessages, parseSseText, type ChatView, type MessagesView } from '../../../helpers/translation/accumulate.ts';
import { CHUNKINGS, runTranslatedStream } from '../../../helpers/translation/run-translated-stream.ts';

const fixture = (path: string) => readFileSync(new URL(`../../../fixtures/sse/${path}`, import.meta.url));
const toChat = translatorBetween('chat', 'messages')!;
const toMessages = translatorBetween('messages', 'chat')!;

interface ChatCase {
  file: string;
  expect: Partial<ChatView>;
  outcome?: number;
  tokens: [number, number];
}

const messagesUpstream: ChatCase[] = [
  {
    file: 'messages/text-cache.sse',
    expect: {
      id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
      role: 'assistant',
      content: 'Grüße aus Zürich ✓ — 東京 🙂!',
      finishReason: 'stop',
      done: true,
      toolCalls: [],
      usage: {
        prompt_tokens: 3084,
        completion_tokens: 9,
        total_tokens: 3093,
        prompt_tokens_details: { cached_tokens: 2048 },
        cache_read_input_tokens: 2048,
        cache_creation_input_tokens: 1024,
      },
    },
    tokens: [3084, 9],
  },
  {
    file: 'messages/tool-use-parallel.sse',
    expect: {
      content: 'Checking both cities.',
      toolCalls: [
        { id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather', arguments: '{"city": "San Francisco", "unit": "celsius"}' },
        { id: 'toolu_01Gu4p5qDqHhSSyNR2UGZTSv', name: 'get_weather', arguments: '{"city": "München"}' },
      ],
      finishReason: 'tool_calls',
      done: true,
    },
    tokens: [472, 89],
  },
  {
    file: 'messages/thinking.sse',
    expect: {
      reasoning: '27 × 453: 27 × 400 = 10800, 27 × 53 = 1431; sum 12231.',
      signatures: ['EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds9dwX6tVlk6eJTEpPcYH+3DQmuKdvX6SVbZ6Yl9ieX0='],
      content: '27 × 453 = 12231',
      finishReason: 'stop',
      done: true,
    },
    tokens: [36, 61],
  },
  {
    // The upstream's own error event becomes the chat-completions error chunk; no [DONE].
    file: 'messages/overloaded-midstream.sse',
    expect: { content: 'Partial', error: { message: 'Overloaded', type: 'overloaded_error', param: null, code: 'overloaded_error' }, done: false },
    tokens: [8, 1],
  },
  {
    // Cut off without message_stop: the gateway ends the stream with an error chunk.
    file: 'messages/cut-off.sse',
    expect: { content: 'The answer is', done: false },
    outcome: 502,
    tokens: [8, 1],
  },
];

interface MessagesCase {
  file: string;
  expect: { content?: unknown[]; stop_reason?: string; usage?: Record<string, unknown>; id?: string };
  error?: { type: string; message: RegExp };
  outcome?: number;
  tokens: [number, number];
}

const chatUpstream: MessagesCase[] = [
  {
    file: 'chat/text-cached.sse',
    expect: {
      id: 'chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG',
      content: [{ type: 'text', text: 'Grüße aus Zürich ✓ — 東京 🙂!' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 1036, output_tokens: 9, cache_read_input_tokens: 2048, cache_creation_input_tokens: 0 },
    },
    tokens: [3084, 9],
  },
  {
    file: 'chat/tool-calls-parallel.sse',
    expect: {
      content: [
        { type: 'tool_use', id: 'call_Dk2Wq8FhV3nN1tYb', name: 'get_weather', input: { city: 'San Francisco', unit: 'celsius' } },
        { type: 'tool_use', id: 'call_R7mTz0pXc5sQe9Ga', name: 'get_weather', input: { city: 'München' } },
      ],
      stop_reason: 'tool_use',
      usage: { input_tokens: 82, output_tokens: 51 },
    },
    tokens: [82, 51],
  },
  {
    file: 'chat/reasoning.sse',
    expect: {
      content: [
        { type: 'thinking', thinking: '27 × 453: 27 × 400 = 10800, 27 × 53 = 1431; sum 12231.', signature: '' },
        { type: 'text', text: '27 × 453 = 12231' },
      ],
      stop_reason: 'end_turn',
      usage: { input_tokens: 36, output_tokens: 61, output_tokens_details: { thinking_tokens: 40 } },
    },
    tokens: [36, 61],
  },
  {
    // Ends after the finish reason without [DONE]: complete all the same.
    file: 'chat/no-done.sse',
    expect: { content: [{ type: 'text', text: 'Hi there' }], stop_reason: 'max_tokens', usage: { input_tokens: 5, output_tokens: 2 } },
    tokens: [5, 2],
  },
  {
    file: 'chat/cut-off.sse',
    expect: { content: [{ type: 'text', text: 'The answer is' }] },
    error: { type: 'api_error', message: /closed the stream before it was complete/ },
    outcome: 502,
    tokens: [0, 0],
  },
  {
    file: 'chat/error-midstream.sse',
    expect: { content: [{ type: 'text', text: 'Partial' }] },
    error: { type: 'api_error', message: /The server had an error/ },
    tokens: [0, 0],
  },
];

describe('messages stream -> chat-completions client', () => {
  for (const c of messagesUpstream) {
    test(c.file, async () => {
      const views: ChatView[] = [];
      for (const how of CHUNKINGS) {
        const run = await runTranslatedStream(toChat, 'openai', fixture(c.file), how);
        const events = parseSseText(run.text);
        const view = accumulateChat(events);
        for (const [key, value] of Object.entries(c.expect)) assert.deepEqual(view[key as keyof ChatView], value, `${how}: ${key}`);
        if (c.outcome) {
          assert.equal(run.state.outcomeStatus, c.outcome);
          assert.equal(JSON.parse(events.at(-1)!.data).error.code, 'upstream_stream_error');
        } else assert.equal(run.state.outcomeStatus, undefined);
        assert.deepEqual([run.state.inputTokens, run.state.outputTokens], c.tokens, `${how}: usage recorded`);
        views.push(view);
      }
      for (const view of views.slice(1)) assert.deepEqual(view, views[0], 'every chunking gives the same answer');
    });
  }

  test('the usage chunk is hidden from a client that did not ask for it, and still counted', async () => {
    const run = await runTranslatedStream(toChat, 'openai', fixture('messages/text-cache.sse'), 'lines', { stripUsageChunk: true });
    const view = accumulateChat(parseSseText(run.text));
    assert.equal(view.usage, undefined);
    assert.equal(view.done, true);
    assert.deepEqual([run.state.inputTokens, run.state.outputTokens], [3084, 9]);
  });

  test('output is written once per upstream chunk, as the events arrive', async () => {
    const run = await runTranslatedStream(toChat, 'openai', fixture('messages/tool-use-parallel.sse'), 'lines');
    // Lines that complete an event with chat output produce a write; nothing is held back to the end.
    assert.ok(run.writes >= 10, `expected many writes, got ${run.writes}`);
  });
});

describe('chat-completions stream -> messages client', () => {
  test('a last event without its blank line (and no [DONE]) is still translated and completes the answer', async () => {
    const bytes = Buffer.from('data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"Hi ✓"},"finish_reason":"stop"}]}');
    for (const how of CHUNKINGS) {
      const run = await runTranslatedStream(toMessages, 'messages', bytes, how);
      const view = accumulateMessages(parseSseText(run.text));
      assert.deepEqual(view.message.content, [{ type: 'text', text: 'Hi ✓' }], how);
      assert.equal(view.stopped, true);
      assert.equal(run.state.outcomeStatus, undefined);
    }
  });

  for (const c of chatUpstream) {
    test(c.file, async () => {
      const views: MessagesView[] = [];
      for (const how of CHUNKINGS) {
        const run = await runTranslatedStream(toMessages, 'messages', fixture(c.file), how);
        const view = accumulateMessages(parseSseText(run.text));
        const message = view.message;
        if (c.expect.id) assert.equal(message.id, c.expect.id);
        assert.deepEqual(message.content, c.expect.content, `${how}: content`);
        if (c.expect.stop_reason) assert.equal(message.stop_reason, c.expect.stop_reason);
        for (const [key, value] of Object.entries(c.expect.usage ?? {})) assert.deepEqual(message.usage[key], value, `${how}: usage.${key}`);
        if (c.error) {
          assert.equal(view.error.type, c.error.type);
          assert.match(view.error.message, c.error.message);
          assert.equal(view.types.at(-1), 'error');
        } else {
          assert.equal(view.stopped, true);
          assert.equal(view.types[0], 'message_start');
        }
        assert.equal(run.state.outcomeStatus, c.outcome);
        assert.deepEqual([run.state.inputTokens, run.state.outputTokens], c.tokens, `${how}: usage recorded`);
        views.push(view);
      }
      for (const view of views.slice(1)) assert.deepEqual(view, views[0], 'every chunking gives the same answer');
    });
  }
});
