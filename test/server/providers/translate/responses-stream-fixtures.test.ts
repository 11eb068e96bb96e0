// Table-driven: the recorded-shape chat-completions and messages streams of test/fixtures/sse go
// through the translated-stream relay to a Responses client in four chunkings (whole, per line,
// 7 bytes, every byte: multi-byte characters get split). The client's view (built and
// grammar-checked by a reader written apart from the gateway) must be the expected one and the same
// in every chunking, and the gateway must count the upstream's usage.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { translatorBetween } from '../../../../server/protocols/translation.ts';
import { parseSseText } from '../../../helpers/translation/accumulate.ts';
import { accumulateResponses, type ResponsesView } from '../../../helpers/translation/accumulate-responses.ts';
import { CHUNKINGS, runTranslatedStream } from '../../../helpers/translation/run-translated-stream.ts';

const fixture = (path: string) => readFileSync(new URL(`../../../fixtures/sse/${path}`, import.meta.url));
const fromChat = translatorBetween('responses', 'chat')!;
const fromMessages = translatorBetween('responses', 'messages')!;

interface Case {
  file: string;
  expect: Partial<ResponsesView>;
  usage?: Record<string, unknown>;
  /** Parts of the final response's items. */
  items?: Array<Record<string, unknown>>;
  outcome?: number;
  tokens: [number, number];
}

const usage = (input: number, cached: number, written: number, output: number, reasoning = 0) => ({
  input_tokens: input,
  input_tokens_details: { cached_tokens: cached, cache_write_tokens: written },
  output_tokens: output,
  output_tokens_details: { reasoning_tokens: reasoning },
  total_tokens: input + output,
});

const chatUpstream: Case[] = [
  {
    file: 'chat/text-cached.sse',
    expect: { id: 'resp_chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG', text: 'Grüße aus Zürich ✓ — 東京 🙂!', status: 'completed', calls: [], reasoning: [] },
    usage: usage(3084, 2048, 0, 9),
    tokens: [3084, 9],
  },
  {
    file: 'chat/tool-calls-parallel.sse',
    expect: {
      text: '',
      calls: [
        { call_id: 'call_Dk2Wq8FhV3nN1tYb', name: 'get_weather', arguments: '{"city": "San Francisco", "unit": "celsius"}' },
        { call_id: 'call_R7mTz0pXc5sQe9Ga', name: 'get_weather', arguments: '{"city": "München"}' },
      ],
      status: 'completed',
    },
    usage: usage(82, 0, 0, 51),
    tokens: [82, 51],
  },
  {
    file: 'chat/reasoning.sse',
    expect: { reasoning: ['27 × 453: 27 × 400 = 10800, 27 × 53 = 1431; sum 12231.'], text: '27 × 453 = 12231', status: 'completed' },
    usage: usage(36, 0, 0, 61, 40),
    items: [{ type: 'reasoning' }, { type: 'message' }],
    tokens: [36, 61],
  },
  {
    // Stopped at the length limit, without [DONE]: complete all the same, as incomplete.
    file: 'chat/no-done.sse',
    expect: { text: 'Hi there', status: 'incomplete', incomplete: { reason: 'max_output_tokens' } },
    usage: usage(5, 0, 0, 2),
    items: [{ type: 'message', status: 'incomplete' }],
    tokens: [5, 2],
  },
  {
    // The upstream's error chunk ends the response as failed, with the upstream's reason.
    file: 'chat/error-midstream.sse',
    expect: { text: 'Partial', status: 'failed', error: { code: 'server_error', message: 'The server had an error while processing your request. Sorry about that!' } },
    tokens: [0, 0],
  },
  {
    // Cut off: no terminal event; the gateway ends the stream with its error chunk.
    file: 'chat/cut-off.sse',
    expect: { text: 'The answer is', status: undefined },
    outcome: 502,
    tokens: [0, 0],
  },
];

const messagesUpstream: Case[] = [
  {
    file: 'messages/text-cache.sse',
    expect: { id: 'resp_msg_01XFDUDYJgAACzvnptvVoYEL', text: 'Grüße aus Zürich ✓ — 東京 🙂!', status: 'completed' },
    usage: usage(3084, 2048, 1024, 9),
    tokens: [3084, 9],
  },
  {
    file: 'messages/tool-use-parallel.sse',
    expect: {
      text: 'Checking both cities.',
      calls: [
        { call_id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather', arguments: '{"city": "San Francisco", "unit": "celsius"}' },
        { call_id: 'toolu_01Gu4p5qDqHhSSyNR2UGZTSv', name: 'get_weather', arguments: '{"city": "München"}' },
      ],
      status: 'completed',
    },
    items: [{ type: 'message' }, { type: 'function_call', status: 'completed' }, { type: 'function_call' }],
    tokens: [472, 89],
  },
  {
    // The thinking text is the reasoning summary; its signature comes back as encrypted_content.
    file: 'messages/thinking.sse',
    expect: { reasoning: ['27 × 453: 27 × 400 = 10800, 27 × 53 = 1431; sum 12231.'], text: '27 × 453 = 12231', status: 'completed' },
    usage: usage(36, 0, 0, 61, 40),
    items: [{ type: 'reasoning', encrypted_content: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds9dwX6tVlk6eJTEpPcYH+3DQmuKdvX6SVbZ6Yl9ieX0=' }, { type: 'message' }],
    tokens: [36, 61],
  },
  {
    file: 'messages/overloaded-midstream.sse',
    expect: { text: 'Partial', status: 'failed', error: { code: 'overloaded_error', message: 'Overloaded' } },
    tokens: [8, 1],
  },
  {
    file: 'messages/cut-off.sse',
    expect: { text: 'The answer is', status: undefined },
    outcome: 502,
    tokens: [8, 1],
  },
];

function check(c: Case, view: ResponsesView, how: string): void {
  for (const [key, value] of Object.entries(c.expect)) assert.deepEqual(view[key as keyof ResponsesView], value, `${how}: ${key}`);
  if (c.usage) assert.deepEqual(view.usage, c.usage, `${how}: usage`);
  (c.items ?? []).forEach((expected, i) => {
    for (const [key, value] of Object.entries(expected)) assert.deepEqual(view.items[i]?.[key], value, `${how}: items[${i}].${key}`);
  });
}

for (const [title, translator, cases] of [
  ['chat-completions stream -> Responses client', fromChat, chatUpstream],
  ['messages stream -> Responses client', fromMessages, messagesUpstream],
] as const) {
  describe(title, () => {
    for (const c of cases) {
      test(c.file, async () => {
        const views: ResponsesView[] = [];
        for (const how of CHUNKINGS) {
          const run = await runTranslatedStream(translator, 'openai', fixture(c.file), how);
          const view = accumulateResponses(parseSseText(run.text));
          check(c, view, how);
          assert.equal(run.state.outcomeStatus, c.outcome, `${how}: outcome`);
          if (c.outcome) assert.equal(view.streamError?.code, 'upstream_stream_error');
          assert.deepEqual([run.state.inputTokens, run.state.outputTokens], c.tokens, `${how}: usage recorded`);
          // The messages protocol has no timestamp: created_at is the gateway's clock, which may tick between runs.
          if (view.final) delete view.final.created_at;
          views.push(view);
        }
        for (const view of views.slice(1)) assert.deepEqual(view, views[0], 'every chunking gives the same answer');
      });
    }
  });
}

describe('answers bound to their request', () => {
  const body = {
    model: 'm',
    input: 'spawn one',
    instructions: 'Be brief.',
    tools: [{ type: 'namespace', name: 'agents', description: 'Sub-agents', tools: [{ type: 'function', name: 'spawn', parameters: { type: 'object' } }] }],
    temperature: 0.2,
  };
  const sse = (data: unknown, event?: string) => `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;

  test('a namespaced function comes back with its namespace, and the response repeats the request', async () => {
    const stream = [
      sse({ type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-up', content: [], usage: { input_tokens: 5, output_tokens: 1 } } }, 'message_start'),
      sse({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'agents__spawn', input: {} } }, 'content_block_start'),
      sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop'),
      sse({ type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 3 } }, 'message_delta'),
      sse({ type: 'message_stop' }, 'message_stop'),
    ].join('');
    for (const how of CHUNKINGS) {
      const run = await runTranslatedStream(fromMessages.forRequest!(body), 'openai', Buffer.from(stream), how);
      const view = accumulateResponses(parseSseText(run.text));
      // A call without arguments still carries a JSON object.
      assert.deepEqual(view.calls, [{ call_id: 'toolu_1', name: 'spawn', namespace: 'agents', arguments: '{}' }]);
      assert.equal(view.final.instructions, 'Be brief.');
      assert.equal(view.final.temperature, 0.2);
      assert.deepEqual(view.final.tools, body.tools);
      assert.equal(view.final.store, false, 'a translated answer is stored nowhere');
    }
  });

  test('a redacted thinking block becomes a reasoning item whose encrypted_content returns it', async () => {
    const stream = [
      sse({ type: 'message_start', message: { id: 'msg_2', model: 'claude-up', usage: { input_tokens: 5, output_tokens: 1 } } }, 'message_start'),
      sse({ type: 'content_block_start', index: 0, content_block: { type: 'redacted_thinking', data: 'EmwKAhgB' } }, 'content_block_start'),
      sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop'),
      sse({ type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }, 'content_block_start'),
      sse({ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Done.' } }, 'content_block_delta'),
      sse({ type: 'content_block_stop', index: 1 }, 'content_block_stop'),
      sse({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 3 } }, 'message_delta'),
      sse({ type: 'message_stop' }, 'message_stop'),
    ].join('');
    const run = await runTranslatedStream(fromMessages, 'openai', Buffer.from(stream), 'every-byte');
    const view = accumulateResponses(parseSseText(run.text));
    assert.deepEqual(view.items[0], { type: 'reasoning', id: 'rs_msg_2_0', summary: [], status: 'completed', encrypted_content: 'redacted_thinking:EmwKAhgB' });
    assert.equal(view.text, 'Done.');
  });
});
