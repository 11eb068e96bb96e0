// The stream translations as pure reducers: (state, event) -> {state, events}. States are frozen
// before every step, so any mutation of an input state throws; edge cases go event by event.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { SseParser } from '../../../../core/protocol/sse.ts';
import type { StreamEventIn, StreamEventOut, StreamTranslation } from '../../../../server/protocols/shared/stream-types.ts';
import { TranslationError } from '../../../../server/protocols/shared/translation-error.ts';
import { translatorBetween } from '../../../../server/protocols/translation.ts';

const toChat = translatorBetween('chat', 'messages')!.stream;
const toMessages = translatorBetween('messages', 'chat')!.stream;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

function run(translation: StreamTranslation<unknown>, events: StreamEventIn[]): { out: StreamEventOut[]; complete: boolean } {
  let state = deepFreeze(translation.initial({ created: 1 }));
  const out: StreamEventOut[] = [];
  for (const event of events) {
    const step = translation.next(state, deepFreeze(event));
    out.push(...step.events);
    state = deepFreeze(step.state);
  }
  const end = translation.finish(state);
  return { out: [...out, ...end.events], complete: end.complete };
}

const chat = (delta: Record<string, unknown>, finish: string | null = null, usage?: unknown): StreamEventIn => ({
  data: { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }], ...(usage ? { usage } : {}) },
});
const types = (out: StreamEventOut[]) => out.map((e) => `${(e.data as { type: string }).type}${'index' in (e.data as object) ? `@${(e.data as { index: number }).index}` : ''}`);

describe('every fixture through the pure reducers with frozen states', () => {
  const files: Array<[string, StreamTranslation<unknown>]> = [
    ['messages/text-cache.sse', toChat],
    ['messages/tool-use-parallel.sse', toChat],
    ['messages/thinking.sse', toChat],
    ['chat/text-cached.sse', toMessages],
    ['chat/tool-calls-parallel.sse', toMessages],
    ['chat/reasoning.sse', toMessages],
    ['chat/no-done.sse', toMessages],
  ];
  for (const [file, translation] of files) {
    test(file, () => {
      const parser = new SseParser();
      const events = [...parser.push(readFileSync(new URL(`../../../fixtures/sse/${file}`, import.meta.url))), ...parser.end()];
      const { out, complete } = run(
        translation,
        events.map((e) => ({ event: e.event, data: e.data === '[DONE]' ? '[DONE]' : JSON.parse(e.data) })),
      );
      assert.equal(complete, true);
      assert.ok(out.length > 0);
    });
  }
});

describe('chat-completions chunks -> messages events', () => {
  test('interleaved arguments of parallel calls land in their own blocks; tool blocks close at the finish', () => {
    const { out } = run(toMessages, [
      chat({ role: 'assistant', content: 'On it.' }),
      chat({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'f', arguments: '{"x":' } }] }),
      chat({ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'g', arguments: '{"y":' } }] }),
      chat({ tool_calls: [{ index: 0, function: { arguments: '1}' } }, { index: 1, function: { arguments: '2}' } }] }),
      chat({}, 'tool_calls'),
      chat({}, null, { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 }),
      { data: '[DONE]' },
    ]);
    assert.deepEqual(types(out), [
      'message_start',
      'content_block_start@0',
      'content_block_delta@0',
      'content_block_stop@0',
      'content_block_start@1',
      'content_block_delta@1',
      'content_block_start@2',
      'content_block_delta@2',
      'content_block_delta@1',
      'content_block_delta@2',
      'content_block_stop@1',
      'content_block_stop@2',
      'message_delta',
      'message_stop',
    ]);
    const last = out.at(-2)!.data as { delta: unknown; usage: unknown };
    assert.deepEqual(last.delta, { stop_reason: 'tool_use', stop_sequence: null });
    assert.deepEqual(last.usage, { input_tokens: 3, output_tokens: 4, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
    assert.ok(out.every((e) => e.event === (e.data as { type: string }).type), 'every event carries its name');
  });

  test('a refusal streams as text and ends with stop_reason refusal', () => {
    const { out } = run(toMessages, [chat({ role: 'assistant', refusal: '' }), chat({ refusal: 'No.' }), chat({}, 'stop'), { data: '[DONE]' }]);
    assert.deepEqual((out[2]!.data as { delta: unknown }).delta, { type: 'text_delta', text: 'No.' });
    assert.equal((out.at(-2)!.data as { delta: { stop_reason: string } }).delta.stop_reason, 'refusal');
  });

  test('thinking signatures and redacted thinking from a gateway-like upstream', () => {
    const { out } = run(toMessages, [
      chat({ role: 'assistant', reasoning_content: 'hm' }),
      chat({ thinking_blocks: [{ type: 'thinking', signature: 'sig' }] }),
      chat({ thinking_blocks: [{ type: 'redacted_thinking', data: 'opaque' }] }),
      chat({ content: 'ok' }, 'stop'),
      { data: '[DONE]' },
    ]);
    assert.deepEqual(types(out).slice(0, 8), [
      'message_start',
      'content_block_start@0',
      'content_block_delta@0',
      'content_block_delta@0',
      'content_block_stop@0',
      'content_block_start@1',
      'content_block_stop@1',
      'content_block_start@2',
    ]);
    assert.deepEqual((out[3]!.data as { delta: unknown }).delta, { type: 'signature_delta', signature: 'sig' });
  });

  test('[DONE] alone, or nothing at all, is an incomplete answer', () => {
    assert.equal(run(toMessages, [{ data: '[DONE]' }]).complete, false);
    assert.equal(run(toMessages, []).complete, false);
  });

  test('an error chunk becomes the messages error event', () => {
    const { out, complete } = run(toMessages, [chat({ content: 'a' }), { data: { error: { message: 'Too many requests', code: 429 } } }]);
    assert.deepEqual(out.at(-1), { event: 'error', data: { type: 'error', error: { type: 'rate_limit_error', message: 'Too many requests' } } });
    assert.equal(complete, true);
  });
});

describe('messages events -> chat-completions chunks', () => {
  const start = { data: { type: 'message_start', message: { id: 'msg_1', model: 'claude', usage: { input_tokens: 5, output_tokens: 1 } } } };
  test('redacted thinking is passed as a thinking_blocks delta', () => {
    const { out } = run(toChat, [start, { data: { type: 'content_block_start', index: 0, content_block: { type: 'redacted_thinking', data: 'opaque' } } }]);
    assert.deepEqual((out[1]!.data as { choices: Array<{ delta: unknown }> }).choices[0]!.delta, { thinking_blocks: [{ type: 'redacted_thinking', data: 'opaque' }] });
  });

  test('events added to the protocol later are skipped; blocks chat cannot carry fail the stream', () => {
    const { out } = run(toChat, [start, { data: { type: 'some_future_event', x: 1 } }]);
    assert.equal(out.length, 1);
    assert.throws(
      () => run(toChat, [start, { data: { type: 'content_block_start', index: 0, content_block: { type: 'server_tool_use', id: 's', name: 'web_search', input: {} } } }]),
      (e: unknown) => e instanceof TranslationError && e.side === 'answer',
    );
  });

  test('a stream without message_stop is incomplete', () => {
    assert.equal(run(toChat, [start]).complete, false);
  });
});
