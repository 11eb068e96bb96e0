// Table-driven tests of chat-completions -> messages request translation: what is translated to
// what, and what is refused with 400 naming the field.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { translatorBetween } from '../../../../server/protocols/translation.ts';
import { TranslationError } from '../../../../server/protocols/shared/translation-error.ts';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const PDF = 'JVBERi0xLjQKJcfsj6IKMSAwIG9iago8PD4+CmVuZG9iagp0cmFpbGVyCjw8Pj4KJSVFT0YK';
const toMessages = (body: Record<string, unknown>) => translatorBetween('chat', 'messages')!.request(body, 'claude-up', { defaultMaxTokens: 4096, maxTokensField: 'max_tokens' });

const user = (content: unknown) => ({ role: 'user', content });

describe('chat-completions request -> messages request', () => {
  const cases: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
    [
      'system string, default max_tokens, sampling, stop string, caller id',
      { model: 'pub', messages: [{ role: 'system', content: 'Be brief.' }, user('Hi')], temperature: 0.3, top_p: 0.9, stop: 'END', user: 'u-42', n: 1, logprobs: false, stream_options: null },
      { model: 'claude-up', max_tokens: 4096, messages: [user('Hi')], system: 'Be brief.', temperature: 0.3, top_p: 0.9, stop_sequences: ['END'], metadata: { user_id: 'u-42' } },
    ],
    [
      'system and developer parts become system blocks (cache_control kept on parts)',
      {
        model: 'pub',
        max_completion_tokens: 100,
        messages: [
          { role: 'system', content: [{ type: 'text', text: 'A', cache_control: { type: 'ephemeral' } }] },
          { role: 'developer', content: 'B' },
          user([{ type: 'text', text: 'Q' }]),
        ],
        stop: ['x', 'y'],
        stream: true,
      },
      {
        model: 'claude-up',
        max_tokens: 100,
        messages: [user([{ type: 'text', text: 'Q' }])],
        system: [{ type: 'text', text: 'A', cache_control: { type: 'ephemeral' } }, { type: 'text', text: 'B' }],
        stream: true,
        stop_sequences: ['x', 'y'],
      },
    ],
    [
      'images (data: URL and https URL), a PDF file',
      {
        model: 'pub',
        max_tokens: 50,
        messages: [
          user([
            { type: 'text', text: 'What is in these?' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg', detail: 'auto' } },
            { type: 'file', file: { filename: 'a.pdf', file_data: `data:application/pdf;base64,${PDF}` } },
          ]),
        ],
      },
      {
        model: 'claude-up',
        max_tokens: 50,
        messages: [
          user([
            { type: 'text', text: 'What is in these?' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
            { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF }, title: 'a.pdf' },
          ]),
        ],
      },
    ],
    [
      'a tool round trip with parallel calls: tool messages join the next user turn',
      {
        model: 'pub',
        max_tokens: 200,
        messages: [
          user('Weather in SF and Munich?'),
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"SF"}' } },
              { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Munich"}' } },
            ],
          },
          { role: 'tool', tool_call_id: 'call_1', content: '18 C' },
          { role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: '11 C' }] },
          user('Thanks, and tomorrow?'),
        ],
        tools: [{ type: 'function', function: { name: 'get_weather', description: 'Weather now', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } }],
        tool_choice: 'required',
        parallel_tool_calls: false,
      },
      {
        model: 'claude-up',
        max_tokens: 200,
        messages: [
          user('Weather in SF and Munich?'),
          {
            role: 'assistant',
            content: [
              { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'SF' } },
              { type: 'tool_use', id: 'call_2', name: 'get_weather', input: { city: 'Munich' } },
            ],
          },
          user([
            { type: 'tool_result', tool_use_id: 'call_1', content: '18 C' },
            { type: 'tool_result', tool_use_id: 'call_2', content: [{ type: 'text', text: '11 C' }] },
            { type: 'text', text: 'Thanks, and tomorrow?' },
          ]),
        ],
        tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }, description: 'Weather now' }],
        tool_choice: { type: 'any', disable_parallel_tool_use: true },
      },
    ],
    [
      'thinking comes back with its signature; in stream form the text is in reasoning_content',
      {
        model: 'pub',
        max_tokens: 2000,
        reasoning_effort: 'high',
        messages: [
          user('2+2?'),
          { role: 'assistant', content: '4', reasoning_content: 'add', thinking_blocks: [{ type: 'thinking', thinking: 'add', signature: 'sig-1' }] },
          user('and 3+3?'),
          { role: 'assistant', content: '6', reasoning_content: 'add again', thinking_blocks: [{ type: 'thinking', signature: 'sig-2' }, { type: 'redacted_thinking', data: 'opaque' }] },
          user('ok'),
        ],
        tool_choice: { type: 'function', function: { name: 'calc' } },
        tools: [{ type: 'function', function: { name: 'calc', strict: true } }],
      },
      {
        model: 'claude-up',
        max_tokens: 2000,
        messages: [
          user('2+2?'),
          { role: 'assistant', content: [{ type: 'thinking', thinking: 'add', signature: 'sig-1' }, { type: 'text', text: '4' }] },
          user('and 3+3?'),
          { role: 'assistant', content: [{ type: 'thinking', thinking: 'add again', signature: 'sig-2' }, { type: 'redacted_thinking', data: 'opaque' }, { type: 'text', text: '6' }] },
          user('ok'),
        ],
        tools: [{ name: 'calc', input_schema: { type: 'object', properties: {} }, strict: true }],
        tool_choice: { type: 'tool', name: 'calc' },
        output_config: { effort: 'high' },
      },
    ],
    [
      'reasoning_effort none, structured output, top_k and thinking extensions',
      {
        model: 'pub',
        max_tokens: 10,
        messages: [user('x')],
        reasoning_effort: 'none',
        top_k: 5,
        response_format: { type: 'json_schema', json_schema: { name: 'answer', strict: true, schema: { type: 'object', properties: { a: { type: 'number' } } } } },
      },
      {
        model: 'claude-up',
        max_tokens: 10,
        messages: [user('x')],
        top_k: 5,
        thinking: { type: 'disabled' },
        output_config: { format: { type: 'json_schema', schema: { type: 'object', properties: { a: { type: 'number' } } } } },
      },
    ],
  ];
  for (const [name, input, expected] of cases) {
    test(name, () => assert.deepEqual(toMessages(input), expected));
  }

  const refused: Array<[string, Record<string, unknown>, string]> = [
    ['n above 1', { n: 2 }, 'n'],
    ['log probabilities', { logprobs: true }, 'logprobs'],
    ['presence penalty', { presence_penalty: 0.5 }, 'presence_penalty'],
    ['seed', { seed: 7 }, 'seed'],
    ['temperature over 1', { temperature: 1.5 }, 'temperature'],
    ['legacy functions', { functions: [{ name: 'f' }] }, 'functions'],
    ['json_object', { response_format: { type: 'json_object' } }, 'response_format.type'],
    ['reasoning_effort minimal', { reasoning_effort: 'minimal' }, 'reasoning_effort'],
    ['audio output', { modalities: ['text', 'audio'] }, 'modalities'],
    ['an unknown field', { frobnicate: true }, 'frobnicate'],
    ['a custom tool', { tools: [{ type: 'custom', custom: { name: 'g' } }] }, 'tools[0].type'],
    ['image detail', { messages: [user([{ type: 'image_url', image_url: { url: 'https://x/y.png', detail: 'high' } }])] }, 'messages[0].content[0].image_url.detail'],
    ['an uploaded file id', { messages: [user([{ type: 'file', file: { file_id: 'file-1' } }])] }, 'messages[0].content[0].file.file_id'],
    ['audio input', { messages: [user([{ type: 'input_audio', input_audio: { data: 'AA', format: 'wav' } }])] }, 'messages[0].content[0].type'],
    ['a participant name', { messages: [{ role: 'user', content: 'x', name: 'bob' }] }, 'messages[0].name'],
    ['a late system message', { messages: [user('x'), { role: 'assistant', content: 'y' }, { role: 'system', content: 'z' }] }, 'messages[2].role'],
    [
      'tool arguments that are not a JSON object',
      { messages: [user('x'), { role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '[1,2' } }] }] },
      'messages[1].tool_calls[0].function.arguments',
    ],
    ['reasoning without its signature', { messages: [user('x'), { role: 'assistant', content: 'y', reasoning_content: 'hmm' }] }, 'messages[1].reasoning_content'],
    ['an image type the messages protocol lacks', { messages: [user([{ type: 'image_url', image_url: { url: 'data:image/bmp;base64,AAAA' } }])] }, 'messages[0].content[0].image_url.url'],
  ];
  for (const [name, patch, field] of refused) {
    test(`refuses ${name}, naming ${field}`, () => {
      const body = { model: 'pub', max_tokens: 10, messages: [user('hi')], ...patch };
      assert.throws(
        () => toMessages(body),
        (error: unknown) => error instanceof TranslationError && error.side === 'request' && error.field === field && error.message.includes(`\`${field}\``),
      );
    });
  }
});
