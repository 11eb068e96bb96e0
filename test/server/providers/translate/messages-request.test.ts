// Table-driven tests of messages -> chat-completions request translation: what is translated to
// what, and what is refused with 400 naming the field.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { translatorBetween } from '../../../../server/protocols/translation.ts';
import { TranslationError } from '../../../../server/protocols/shared/translation-error.ts';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const PDF = 'JVBERi0xLjQKJcfsj6IKMSAwIG9iago8PD4+CmVuZG9iagp0cmFpbGVyCjw8Pj4KJSVFT0YK';
const toChat = (body: Record<string, unknown>, maxTokensField: 'max_tokens' | 'max_completion_tokens' = 'max_tokens') =>
  translatorBetween('messages', 'chat')!.request(body, 'gpt-up', { defaultMaxTokens: 4096, maxTokensField });

const user = (content: unknown) => ({ role: 'user', content });

describe('messages request -> chat-completions request', () => {
  const cases: Array<[string, Record<string, unknown>, Record<string, unknown>, ('max_tokens' | 'max_completion_tokens')?]> = [
    [
      'system blocks, stream with usage, sampling, stop sequences, caller id; cache_control is a hint',
      {
        model: 'pub',
        max_tokens: 300,
        system: [{ type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral' } }],
        messages: [user('Hi')],
        stream: true,
        temperature: 0.2,
        top_p: 0.8,
        stop_sequences: ['###'],
        metadata: { user_id: 'u-7' },
        cache_control: { type: 'ephemeral' },
      },
      {
        model: 'gpt-up',
        messages: [{ role: 'system', content: 'You are terse.' }, user('Hi')],
        max_completion_tokens: 300,
        stream: true,
        stream_options: { include_usage: true },
        temperature: 0.2,
        top_p: 0.8,
        stop: ['###'],
        user: 'u-7',
      },
      'max_completion_tokens',
    ],
    [
      'images, a PDF, a tool round trip with parallel calls and an error result, thinking in history',
      {
        model: 'pub',
        max_tokens: 100,
        system: [{ type: 'text', text: 'A' }, { type: 'text', text: 'B' }],
        messages: [
          user([
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/d.png' } },
            { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF }, title: 'spec.pdf' },
            { type: 'text', text: 'Compare.' },
          ]),
          {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: 'Need both.', signature: 'sig' },
              { type: 'text', text: 'Looking up.' },
              { type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { q: 'a' } },
              { type: 'tool_use', id: 'toolu_2', name: 'lookup', input: { q: 'b' }, caller: { type: 'direct' } },
            ],
          },
          user([
            { type: 'tool_result', tool_use_id: 'toolu_1', content: 'A found' },
            { type: 'tool_result', tool_use_id: 'toolu_2', content: [{ type: 'text', text: 'not found' }], is_error: true },
            { type: 'text', text: 'Go on.' },
          ]),
        ],
        tools: [{ name: 'lookup', description: 'Search', input_schema: { type: 'object', properties: { q: { type: 'string' } } }, cache_control: { type: 'ephemeral' } }],
        tool_choice: { type: 'any', disable_parallel_tool_use: true },
      },
      {
        model: 'gpt-up',
        messages: [
          { role: 'system', content: [{ type: 'text', text: 'A' }, { type: 'text', text: 'B' }] },
          user([
            { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
            { type: 'image_url', image_url: { url: 'https://example.com/d.png' } },
            { type: 'file', file: { filename: 'spec.pdf', file_data: `data:application/pdf;base64,${PDF}` } },
            { type: 'text', text: 'Compare.' },
          ]),
          {
            role: 'assistant',
            content: 'Looking up.',
            tool_calls: [
              { id: 'toolu_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"a"}' } },
              { id: 'toolu_2', type: 'function', function: { name: 'lookup', arguments: '{"q":"b"}' } },
            ],
            reasoning_content: 'Need both.',
          },
          { role: 'tool', tool_call_id: 'toolu_1', content: 'A found' },
          { role: 'tool', tool_call_id: 'toolu_2', content: [{ type: 'text', text: 'Error: not found' }] },
          user([{ type: 'text', text: 'Go on.' }]),
        ],
        max_tokens: 100,
        tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } } }, description: 'Search' } }],
        tool_choice: 'required',
        parallel_tool_calls: false,
      },
    ],
    [
      'thinking budget maps to an effort; a named tool choice',
      { model: 'pub', max_tokens: 40000, messages: [user('x')], thinking: { type: 'enabled', budget_tokens: 31999 }, tool_choice: { type: 'tool', name: 'f' }, tools: [{ name: 'f', input_schema: { type: 'object' } }] },
      {
        model: 'gpt-up',
        messages: [user('x')],
        max_tokens: 40000,
        tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
        tool_choice: { type: 'function', function: { name: 'f' } },
        reasoning_effort: 'high',
      },
    ],
    [
      'adaptive thinking with an explicit effort; structured output',
      {
        model: 'pub',
        max_tokens: 10,
        messages: [user('x')],
        thinking: { type: 'adaptive' },
        output_config: { effort: 'medium', format: { type: 'json_schema', schema: { type: 'object' } } },
      },
      {
        model: 'gpt-up',
        messages: [user('x')],
        max_tokens: 10,
        reasoning_effort: 'medium',
        response_format: { type: 'json_schema', json_schema: { name: 'output', schema: { type: 'object' }, strict: true } },
      },
    ],
    ['disabled thinking', { model: 'pub', max_tokens: 10, messages: [user('x')], thinking: { type: 'disabled' } }, { model: 'gpt-up', messages: [user('x')], max_tokens: 10, reasoning_effort: 'none' }],
  ];
  for (const [name, input, expected, field] of cases) {
    test(name, () => assert.deepEqual(toChat(input, field), expected));
  }

  test('thinking budgets map to low / medium / high', () => {
    const effort = (budget: number) => toChat({ model: 'm', max_tokens: 50000, messages: [user('x')], thinking: { type: 'enabled', budget_tokens: budget } }).reasoning_effort;
    assert.deepEqual([1024, 4095, 4096, 16383, 16384].map(effort), ['low', 'low', 'medium', 'medium', 'high']);
  });

  const refused: Array<[string, Record<string, unknown>, string]> = [
    ['top_k', { top_k: 5 }, 'top_k'],
    ['an unknown field', { frobnicate: 1 }, 'frobnicate'],
    ['a server tool', { tools: [{ type: 'web_search_20250305', name: 'web_search' }] }, 'tools[0].type'],
    ['a tool field chat lacks', { tools: [{ name: 'f', input_schema: {}, defer_loading: true }] }, 'tools[0].defer_loading'],
    ['MCP servers', { mcp_servers: [{ type: 'url', url: 'https://m', name: 'm' }] }, 'mcp_servers'],
    ['a container', { container: 'c-1' }, 'container'],
    ['thinking shown as omitted', { thinking: { type: 'enabled', budget_tokens: 2000, display: 'omitted' } }, 'thinking.display'],
    ['an effort with thinking disabled', { thinking: { type: 'disabled' }, output_config: { effort: 'low' } }, 'output_config.effort'],
    ['redacted thinking in history', { messages: [user('x'), { role: 'assistant', content: [{ type: 'redacted_thinking', data: 'zz' }] }, user('y')] }, 'messages[1].content[0].type'],
    ['an image inside a tool result', { messages: [user([{ type: 'tool_result', tool_use_id: 't', content: [{ type: 'image', source: { type: 'url', url: 'https://x' } }] }])] }, 'messages[0].content[0].content[0].type'],
    ['a document with citations', { messages: [user([{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF }, citations: { enabled: true } }])] }, 'messages[0].content[0].citations'],
    ['a plain-text document', { messages: [user([{ type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'hi' } }])] }, 'messages[0].content[0].source'],
    ['an uploaded image', { messages: [user([{ type: 'image', source: { type: 'file', file_id: 'f' } }])] }, 'messages[0].content[0].source.type'],
    ['a search result block', { messages: [user([{ type: 'search_result', source: 's', title: 't', content: [] }])] }, 'messages[0].content[0].type'],
  ];
  for (const [name, patch, field] of refused) {
    test(`refuses ${name}, naming ${field}`, () => {
      const body = { model: 'pub', max_tokens: 10, messages: [user('hi')], ...patch };
      assert.throws(
        () => toChat(body),
        (error: unknown) => error instanceof TranslationError && error.field === field && error.message.includes(`\`${field}\``),
      );
    });
  }
});
