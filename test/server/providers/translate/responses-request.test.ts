// Table-driven: Responses requests translated for a chat-completions and for a messages upstream,
// JSON answers translated back, and refusals naming the field as the client wrote it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TranslationError } from '../../../../server/protocols/shared/translation-error.ts';
import { translatorBetween } from '../../../../server/protocols/translation.ts';

const toChat = translatorBetween('responses', 'chat')!;
const toMessages = translatorBetween('responses', 'messages')!;
const SETTINGS = { defaultMaxTokens: 2048, maxTokensField: 'max_tokens' as const };

const chat = (body: Record<string, unknown>) => toChat.forRequest!(body).request(body, 'up', SETTINGS);
const messages = (body: Record<string, unknown>) => toMessages.forRequest!(body).request(body, 'up', SETTINGS);

function refused(run: () => unknown, field: string, message?: RegExp): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof TranslationError, String(error));
    assert.equal(error.field, field);
    if (message) assert.match(error.message, message);
    return true;
  });
}

const CONVERSATION = [
  { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Use tools.' }] },
  { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'List files' }] },
  { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Run ls.' }], encrypted_content: 'sig-1' },
  { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', phase: 'commentary', content: [{ type: 'output_text', text: 'Listing.', annotations: [] }] },
  { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'shell', arguments: '{"cmd":"ls"}', status: 'completed' },
  { type: 'function_call_output', call_id: 'call_1', output: 'a.txt' },
];

describe('Responses request -> chat-completions request', () => {
  test('a Codex-style conversation: developer items as system, one assistant message per turn, tool messages', () => {
    const out = chat({ model: 'x', instructions: 'Be brief.', input: CONVERSATION, stream: true, store: false, include: ['reasoning.encrypted_content'], prompt_cache_key: 'k', client_metadata: { a: 1 }, max_output_tokens: 99 });
    assert.deepEqual(out, {
      model: 'up',
      messages: [
        // Through the canonical model: instructions and developer items are one system prompt of two parts.
        { role: 'system', content: [{ type: 'text', text: 'Be brief.' }, { type: 'text', text: 'Use tools.' }] },
        { role: 'user', content: [{ type: 'text', text: 'List files' }] },
        { role: 'assistant', content: 'Listing.', reasoning_content: 'Run ls.', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'shell', arguments: '{"cmd":"ls"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: 'a.txt' },
      ],
      max_tokens: 99,
      stream: true,
      stream_options: { include_usage: true },
      prompt_cache_key: 'k',
    });
  });

  test('tools: functions one to one, namespaces flattened, tool_choice and formats', () => {
    const out = chat({
      model: 'x',
      input: 'hi',
      tools: [
        { type: 'function', name: 'f', description: 'F', parameters: { type: 'object' }, strict: true },
        { type: 'namespace', name: 'ns', description: 'Group', tools: [{ type: 'function', name: 'g' }] },
      ],
      tool_choice: { type: 'function', name: 'f' },
      text: { format: { type: 'json_schema', name: 'out', schema: { type: 'object' }, strict: true }, verbosity: 'low' },
      reasoning: { effort: 'minimal', summary: 'detailed' },
    });
    assert.deepEqual(out.tools, [
      { type: 'function', function: { name: 'f', parameters: { type: 'object' }, description: 'F', strict: true } },
      { type: 'function', function: { name: 'ns__g', parameters: { type: 'object', properties: {} }, description: 'Group' } },
    ]);
    assert.deepEqual(out.tool_choice, { type: 'function', function: { name: 'f' } });
    assert.deepEqual(out.response_format, { type: 'json_schema', json_schema: { name: 'out', schema: { type: 'object' }, strict: true } });
    assert.equal(out.verbosity, 'low');
    assert.equal(out.reasoning_effort, 'minimal');
  });

  test('refusals name the field', () => {
    refused(() => chat({ model: 'x', input: 'hi', previous_response_id: 'resp_1' }), 'previous_response_id', /keeps no conversation state/);
    refused(() => chat({ model: 'x', input: 'hi', tools: [{ type: 'file_search' }] }), 'tools[0].type');
    refused(() => chat({ model: 'x', input: 'hi', tools: [{ type: 'custom', name: 'patch' }] }), 'tools[0].type', /free-form/);
    refused(() => chat({ model: 'x', input: [{ type: 'function_call_output', call_id: 'c', output: [{ type: 'input_image', image_url: 'https://x/y.png' }] }] }), 'input[0].output[0].type', /text only/);
    refused(() => chat({ model: 'x', input: [{ role: 'user', content: [{ type: 'input_audio' }] }] }), 'input[0].content[0].type');
    refused(() => chat({ model: 'x', input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'file_1' }] }] }), 'input[0].content[0].file_id');
    refused(() => chat({ model: 'x', input: 'hi', background: true }), 'background');
    refused(() => chat({ model: 'x', input: 'hi', truncation: 'auto' }), 'truncation');
    refused(() => chat({ model: 'x', input: 'hi', metadata: { a: 'b' } }), 'metadata');
    refused(() => chat({ model: 'x', input: 'hi', reasoning: { effort: 'ultra' } }), 'reasoning.effort');
    refused(() => chat({ model: 'x', input: 'hi', stream_options: { include_obfuscation: false, other: 1 } }), 'stream_options.other');
    refused(() => chat({ model: 'x', input: [{ type: 'web_search_call', id: 'ws_1' }] }), 'input[0].type', /tools that run at a Responses provider/);
  });
});

describe('Responses request -> messages request', () => {
  test('the same conversation: system, thinking returned with its signature, tool_use and tool_result', () => {
    const out = messages({ model: 'x', instructions: 'Be brief.', input: CONVERSATION, reasoning: { effort: 'high' }, parallel_tool_calls: false, tools: [{ type: 'function', name: 'shell', parameters: { type: 'object' } }] });
    assert.deepEqual(out, {
      model: 'up',
      max_tokens: 2048,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'List files' }] },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Run ls.', signature: 'sig-1' },
            { type: 'text', text: 'Listing.' },
            { type: 'tool_use', id: 'call_1', name: 'shell', input: { cmd: 'ls' } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: 'a.txt' }] },
      ],
      system: [
        { type: 'text', text: 'Be brief.' },
        { type: 'text', text: 'Use tools.' },
      ],
      tools: [{ name: 'shell', input_schema: { type: 'object' } }],
      tool_choice: { type: 'auto', disable_parallel_tool_use: true },
      output_config: { effort: 'high' },
    });
  });

  test('images, PDFs, cache breakpoints, redacted thinking, effort none, json_schema', () => {
    const out = messages({
      model: 'x',
      max_output_tokens: 10,
      input: [
        { type: 'reasoning', summary: [], encrypted_content: 'redacted_thinking:ABC' },
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'look', prompt_cache_breakpoint: { mode: 'explicit' } },
            { type: 'input_image', image_url: 'https://example.com/a.png' },
            { type: 'input_file', file_data: 'data:application/pdf;base64,JVBE', filename: 'a.pdf' },
          ],
        },
      ],
      reasoning: { effort: 'none' },
      text: { format: { type: 'json_schema', name: 'o', schema: { type: 'object' } } },
    });
    assert.deepEqual(out.messages, [
      { role: 'assistant', content: [{ type: 'redacted_thinking', data: 'ABC' }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look', cache_control: { type: 'ephemeral' } },
          { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } },
          { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBE' }, title: 'a.pdf' },
        ],
      },
    ]);
    assert.equal(out.max_tokens, 10);
    assert.deepEqual(out.thinking, { type: 'disabled' });
    assert.deepEqual(out.output_config, { format: { type: 'json_schema', schema: { type: 'object' } } });
  });

  test('refusals name the field', () => {
    refused(() => messages({ model: 'x', input: [{ role: 'user', content: 'a' }, { role: 'system', content: 'late' }] }), 'input[1].role');
    refused(() => messages({ model: 'x', input: [{ type: 'reasoning', summary: [{ type: 'summary_text', text: 't' }] }] }), 'input[0].encrypted_content');
    refused(() => messages({ model: 'x', input: [{ type: 'function_call', call_id: 'c', name: 'f', arguments: '[1]' }] }), 'input[0].arguments');
    refused(() => messages({ model: 'x', input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'data:image/bmp;base64,AA' }] }] }), 'input[0].content[0].image_url');
    refused(() => messages({ model: 'x', input: 'hi', text: { format: { type: 'json_object' } } }), 'text.format.type');
    refused(() => messages({ model: 'x', input: 'hi', reasoning: { effort: 'minimal' } }), 'reasoning.effort');
    refused(() => messages({ model: 'x', input: 'hi', user: 'a', safety_identifier: 'b' }), 'user');
    refused(() => messages({ model: 'x', input: 'hi', top_logprobs: 3 }), 'top_logprobs');
    refused(() => messages({ model: 'x', input: [] }), 'input', /empty/);
  });
});

describe('JSON answers -> Responses', () => {
  const body = { model: 'x', input: 'hi', instructions: 'I', tools: [{ type: 'namespace', name: 'ns', description: '', tools: [{ type: 'function', name: 'g' }] }] };

  test('a chat-completions answer: reasoning, text, a namespaced call, usage; the upstream timestamp kept', () => {
    const answer = toChat.forRequest!(body).response(
      {
        id: 'chatcmpl-1',
        created: 1700000000,
        model: 'gpt-up',
        choices: [{ index: 0, message: { role: 'assistant', content: 'Hi', reasoning_content: 'Hm.', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'ns__g', arguments: '' } }] }, finish_reason: 'tool_calls' }],
        usage: { prompt_tokens: 10, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 4 }, completion_tokens_details: { reasoning_tokens: 2 } },
      },
      { created: 1 },
    ) as any;
    assert.equal(answer.id, 'resp_chatcmpl-1');
    assert.equal(answer.created_at, 1700000000);
    assert.equal(answer.status, 'completed');
    assert.equal(answer.instructions, 'I');
    assert.deepEqual(answer.output, [
      { type: 'reasoning', id: 'rs_chatcmpl-1_0', summary: [{ type: 'summary_text', text: 'Hm.' }], status: 'completed' },
      { type: 'message', id: 'msg_chatcmpl-1_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Hi', annotations: [] }] },
      { type: 'function_call', id: 'fc_chatcmpl-1_2', call_id: 'call_1', name: 'g', arguments: '{}', status: 'completed', namespace: 'ns' },
    ]);
    assert.deepEqual(answer.usage, { input_tokens: 10, input_tokens_details: { cached_tokens: 4, cache_write_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 2 }, total_tokens: 15 });
  });

  test('a messages answer cut at max_tokens is incomplete; a refusal stop is incomplete for content_filter', () => {
    const cut = toMessages.response({ id: 'msg_1', model: 'c', content: [{ type: 'text', text: 'Par' }], stop_reason: 'max_tokens', usage: { input_tokens: 3, output_tokens: 1 } }, { created: 5 }) as any;
    assert.equal(cut.status, 'incomplete');
    assert.deepEqual(cut.incomplete_details, { reason: 'max_output_tokens' });
    assert.equal(cut.output[0].status, 'incomplete');
    const filtered = toMessages.response({ id: 'msg_2', model: 'c', content: [], stop_reason: 'refusal', usage: {} }, { created: 5 }) as any;
    assert.deepEqual(filtered.incomplete_details, { reason: 'content_filter' });
    assert.throws(() => toMessages.response({ id: 'm', content: [{ type: 'server_tool_use', id: 's', name: 'web_search' }] }, { created: 5 }), (e: unknown) => e instanceof TranslationError && e.side === 'answer' && e.field === 'content[0].type');
  });
});
