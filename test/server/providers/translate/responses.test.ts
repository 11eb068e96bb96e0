// Table-driven tests of JSON answers and error bodies in both directions.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { clientErrorBody } from '../../../../server/protocols/shared/error-translation.ts';
import { translatorBetween } from '../../../../server/protocols/translation.ts';
import { TranslationError } from '../../../../server/protocols/shared/translation-error.ts';

// A chat client of a messages upstream, and a messages client of a chat upstream.
const messagesResponseToChat = (body: Record<string, unknown>, context: { created: number }) => translatorBetween('chat', 'messages')!.response(body, context) as any;
const chatResponseToMessages = (body: Record<string, unknown>) => translatorBetween('messages', 'chat')!.response(body, { created: 0 });

const MESSAGE_BASE = { id: 'msg_01', type: 'message', role: 'assistant', model: 'claude-up', stop_sequence: null };
const CHAT_BASE = { id: 'chatcmpl-1', object: 'chat.completion', created: 1700000000, model: 'gpt-up' };

describe('messages answer -> chat-completions answer', () => {
  const cases: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
    [
      'text with cache usage',
      { ...MESSAGE_BASE, content: [{ type: 'text', text: 'Hello' }], stop_reason: 'end_turn', usage: { input_tokens: 10, cache_read_input_tokens: 100, cache_creation_input_tokens: 5, output_tokens: 3 } },
      {
        id: 'msg_01',
        object: 'chat.completion',
        created: 42,
        model: 'claude-up',
        choices: [{ index: 0, message: { role: 'assistant', content: 'Hello', refusal: null }, logprobs: null, finish_reason: 'stop' }],
        usage: { prompt_tokens: 115, completion_tokens: 3, total_tokens: 118, prompt_tokens_details: { cached_tokens: 100 }, cache_read_input_tokens: 100, cache_creation_input_tokens: 5 },
      },
    ],
    [
      'thinking, text and parallel tool calls',
      {
        ...MESSAGE_BASE,
        content: [
          { type: 'thinking', thinking: 'Two lookups.', signature: 'sig-a' },
          { type: 'text', text: 'Looking.' },
          { type: 'tool_use', id: 'toolu_1', name: 'get', input: { city: 'Oslo' }, caller: { type: 'direct' } },
          { type: 'tool_use', id: 'toolu_2', name: 'get', input: {} },
        ],
        stop_reason: 'tool_use',
        usage: { input_tokens: 20, output_tokens: 30, output_tokens_details: { thinking_tokens: 12 } },
      },
      {
        id: 'msg_01',
        object: 'chat.completion',
        created: 42,
        model: 'claude-up',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: 'Looking.',
              refusal: null,
              tool_calls: [
                { id: 'toolu_1', type: 'function', function: { name: 'get', arguments: '{"city":"Oslo"}' } },
                { id: 'toolu_2', type: 'function', function: { name: 'get', arguments: '{}' } },
              ],
              reasoning_content: 'Two lookups.',
              thinking_blocks: [{ type: 'thinking', thinking: 'Two lookups.', signature: 'sig-a' }],
            },
            logprobs: null,
            finish_reason: 'tool_calls',
          },
        ],
        usage: {
          prompt_tokens: 20,
          completion_tokens: 30,
          total_tokens: 50,
          prompt_tokens_details: { cached_tokens: 0 },
          cache_read_input_tokens: 0,
          cache_creation_input_tokens: 0,
          completion_tokens_details: { reasoning_tokens: 12 },
        },
      },
    ],
  ];
  for (const [name, input, expected] of cases) test(name, () => assert.deepEqual(messagesResponseToChat(input, { created: 42 }), expected));

  test('stop reasons map to finish reasons', () => {
    const finish = (stop: string) => messagesResponseToChat({ ...MESSAGE_BASE, content: [], stop_reason: stop, usage: {} }, { created: 0 }).choices[0]!.finish_reason;
    assert.deepEqual(
      ['end_turn', 'stop_sequence', 'max_tokens', 'tool_use', 'refusal', 'pause_turn', 'model_context_window_exceeded'].map(finish),
      ['stop', 'stop', 'length', 'tool_calls', 'content_filter', 'stop', 'length'],
    );
  });

  test('a block chat-completions cannot carry fails the answer, naming it', () => {
    assert.throws(
      () => messagesResponseToChat({ ...MESSAGE_BASE, content: [{ type: 'server_tool_use', id: 's', name: 'web_search', input: {} }], stop_reason: 'end_turn', usage: {} }, { created: 0 }),
      (e: unknown) => e instanceof TranslationError && e.side === 'answer' && e.field === 'content[0].type',
    );
  });
});

describe('chat-completions answer -> messages answer', () => {
  const choice = (message: Record<string, unknown>, finish: string, extra: Record<string, unknown> = {}) => ({ index: 0, message: { role: 'assistant', ...message }, logprobs: null, finish_reason: finish, ...extra });
  const cases: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
    [
      'text with cached tokens',
      { ...CHAT_BASE, choices: [choice({ content: 'Hi!', refusal: null }, 'stop')], usage: { prompt_tokens: 1200, completion_tokens: 4, total_tokens: 1204, prompt_tokens_details: { cached_tokens: 1024 } } },
      {
        id: 'chatcmpl-1',
        type: 'message',
        role: 'assistant',
        model: 'gpt-up',
        content: [{ type: 'text', text: 'Hi!' }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 176, output_tokens: 4, cache_creation_input_tokens: 0, cache_read_input_tokens: 1024 },
      },
    ],
    [
      'reasoning, text and parallel tool calls',
      {
        ...CHAT_BASE,
        choices: [
          choice(
            {
              content: 'Let me check.',
              reasoning_content: 'Two cities.',
              tool_calls: [
                { id: 'call_a', type: 'function', function: { name: 'w', arguments: '{"c":"SF"}' } },
                { id: 'call_b', type: 'function', function: { name: 'w', arguments: '' } },
              ],
            },
            'tool_calls',
          ),
        ],
        usage: { prompt_tokens: 50, completion_tokens: 20, total_tokens: 70, completion_tokens_details: { reasoning_tokens: 8 } },
      },
      {
        id: 'chatcmpl-1',
        type: 'message',
        role: 'assistant',
        model: 'gpt-up',
        content: [
          { type: 'thinking', thinking: 'Two cities.', signature: '' },
          { type: 'text', text: 'Let me check.' },
          { type: 'tool_use', id: 'call_a', name: 'w', input: { c: 'SF' } },
          { type: 'tool_use', id: 'call_b', name: 'w', input: {} },
        ],
        stop_reason: 'tool_use',
        stop_sequence: null,
        usage: { input_tokens: 50, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens_details: { thinking_tokens: 8 } },
      },
    ],
    [
      'a refusal',
      { ...CHAT_BASE, choices: [choice({ content: null, refusal: 'I cannot help with that.' }, 'stop')], usage: { prompt_tokens: 5, completion_tokens: 6, total_tokens: 11 } },
      {
        id: 'chatcmpl-1',
        type: 'message',
        role: 'assistant',
        model: 'gpt-up',
        content: [{ type: 'text', text: 'I cannot help with that.' }],
        stop_reason: 'refusal',
        stop_sequence: null,
        usage: { input_tokens: 5, output_tokens: 6, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      },
    ],
  ];
  for (const [name, input, expected] of cases) test(name, () => assert.deepEqual(chatResponseToMessages(input), expected));

  test('finish reasons map to stop reasons; a reported stop string keeps its name', () => {
    const stop = (finish: string, extra: Record<string, unknown> = {}) => {
      const m = chatResponseToMessages({ ...CHAT_BASE, choices: [choice({ content: 'x' }, finish, extra)] });
      return [m.stop_reason, m.stop_sequence];
    };
    assert.deepEqual(stop('stop'), ['end_turn', null]);
    assert.deepEqual(stop('length'), ['max_tokens', null]);
    assert.deepEqual(stop('content_filter'), ['refusal', null]);
    assert.deepEqual(stop('stop', { stop_reason: '###' }), ['stop_sequence', '###']);
  });

  test('tool arguments that are not a JSON object fail the answer, naming them', () => {
    assert.throws(
      () => chatResponseToMessages({ ...CHAT_BASE, choices: [choice({ tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{"a":' } }] }, 'tool_calls')] }),
      (e: unknown) => e instanceof TranslationError && e.side === 'answer' && e.field === 'choices[0].message.tool_calls[0].function.arguments',
    );
  });
});

describe('error bodies in the client protocol', () => {
  const openAiBody = { error: { message: 'Rate limit reached for gpt-up', type: 'requests', param: null, code: 'rate_limit_exceeded' } };
  const messagesBody = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' }, request_id: 'req_up' };
  const cases: Array<[string, 'openai' | 'messages', number, unknown, unknown]> = [
    ['same protocol: the upstream bytes go through', 'openai', 429, openAiBody, undefined],
    ['same protocol (messages)', 'messages', 529, messagesBody, undefined],
    ['chat error for a messages client', 'messages', 429, openAiBody, { type: 'error', error: { type: 'rate_limit_error', message: 'Rate limit reached for gpt-up' }, request_id: 'req_gw' }],
    ['messages error for a chat client', 'openai', 529, messagesBody, { error: { message: 'Overloaded', type: 'server_error', param: null, code: 'overloaded_error' } }],
    [
      'a 400 from a messages upstream keeps the message and the type as code',
      'openai',
      400,
      { type: 'error', error: { type: 'invalid_request_error', message: 'messages.1: roles must alternate' } },
      { error: { message: 'messages.1: roles must alternate', type: 'invalid_request_error', param: null, code: 'invalid_request_error' } },
    ],
    ['a body in neither envelope', 'messages', 502, '<html>bad gateway</html>', { type: 'error', error: { type: 'api_error', message: 'fallback text' }, request_id: 'req_gw' }],
  ];
  for (const [name, surface, status, body, expected] of cases) {
    test(name, () => assert.deepEqual(clientErrorBody(surface, status, body, 'fallback text', 'req_gw'), expected));
  }
});
