// The Converse codec alone (protocols/converse/): a canonical request with images, PDFs, tool calls
// and results, thinking and cache markers encoded for Converse; answers and stream events with tool
// calls and reasoning decoded back; what Converse cannot carry refused by name.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decodeConverseAnswer } from '../../../server/protocols/converse/decode-answer.ts';
import { converseStreamToCanonical } from '../../../server/protocols/converse/decode-stream.ts';
import { encodeConverseRequest } from '../../../server/protocols/converse/encode-request.ts';
import { TranslationError } from '../../../server/protocols/shared/translation-error.ts';
import { DEFAULT_TRANSLATION } from '../../../server/protocols/translation.ts';

const target = { upstreamModel: 'us.amazon.nova-pro-v1:0', settings: DEFAULT_TRANSLATION };
const PNG = 'iVBORw0KGgo=';

describe('Converse codec', () => {
  test('encodes every block kind Converse has, tools and inference settings', () => {
    const encoded = encodeConverseRequest(
      {
        system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
        max_tokens: 300,
        temperature: 0.2,
        top_p: 0.9,
        top_k: 40,
        stop_sequences: ['END'],
        metadata: { user_id: 'user-7' },
        tools: [{ name: 'look', description: 'Look at a file', input_schema: { type: 'object', properties: { path: { type: 'string' } } } }],
        tool_choice: { type: 'tool', name: 'look' },
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'see' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }, { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' } }] },
          { role: 'assistant', content: [{ type: 'thinking', thinking: 'hmm', signature: 'sig-1' }, { type: 'tool_use', id: 'tu_1', name: 'look', input: { path: 'a' } }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tu_1', is_error: true, content: [{ type: 'text', text: 'missing' }] }] },
        ],
      } as never,
      target,
    );
    assert.deepEqual(encoded, {
      messages: [
        { role: 'user', content: [{ text: 'see' }, { image: { format: 'png', source: { bytes: PNG } } }, { document: { format: 'pdf', name: 'document-1', source: { bytes: 'JVBERi0=' } } }] },
        { role: 'assistant', content: [{ reasoningContent: { reasoningText: { text: 'hmm', signature: 'sig-1' } } }, { toolUse: { toolUseId: 'tu_1', name: 'look', input: { path: 'a' } } }] },
        { role: 'user', content: [{ toolResult: { toolUseId: 'tu_1', content: [{ text: 'missing' }], status: 'error' } }] },
      ],
      system: [{ text: 'Be brief.' }, { cachePoint: { type: 'default' } }],
      inferenceConfig: { maxTokens: 300, temperature: 0.2, topP: 0.9, stopSequences: ['END'] },
      additionalModelRequestFields: { top_k: 40 },
      toolConfig: { tools: [{ toolSpec: { name: 'look', description: 'Look at a file', inputSchema: { json: { type: 'object', properties: { path: { type: 'string' } } } } } }], toolChoice: { tool: { name: 'look' } } },
      requestMetadata: { user_id: 'user-7' },
    });
  });

  test('refuses what Converse cannot carry, naming the field', () => {
    const refused = (request: Record<string, unknown>, field: string) =>
      assert.throws(() => encodeConverseRequest({ messages: [{ role: 'user', content: 'hi' }], ...request } as never, target), (e: Error) => e instanceof TranslationError && e.field === field);
    refused({ tool_choice: { type: 'none' }, tools: [{ name: 't', input_schema: {} }] }, 'tool_choice');
    refused({ tools: [{ type: 'web_search_20250305', name: 'web_search' }] }, 'tools[0].type');
    refused({ thinking: { type: 'enabled', budget_tokens: 1024 } }, 'thinking');
    refused({ messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'url', url: 'https://x/y.png' } }] }] }, 'messages[0].content[0].source.type');
    refused({ container: 'c1' }, 'container');
  });

  test('decodes an answer with reasoning, text and a tool call', () => {
    const answer = decodeConverseAnswer(
      {
        output: { message: { role: 'assistant', content: [{ reasoningContent: { reasoningText: { text: 'think', signature: 's' } } }, { text: 'Calling.' }, { toolUse: { toolUseId: 't1', name: 'look', input: { path: 'b' } } }] } },
        stopReason: 'tool_use',
        usage: { inputTokens: 10, outputTokens: 4, cacheReadInputTokens: 6, cacheWriteInputTokens: 2 },
      },
      'nova',
    );
    assert.deepEqual(answer.content, [{ type: 'thinking', thinking: 'think', signature: 's' }, { type: 'text', text: 'Calling.' }, { type: 'tool_use', id: 't1', name: 'look', input: { path: 'b' } }]);
    assert.equal(answer.stop_reason, 'tool_use');
    assert.deepEqual(answer.usage, { input_tokens: 10, output_tokens: 4, cache_read_input_tokens: 6, cache_creation_input_tokens: 2 });
  });

  test('decodes a stream with text, a streamed tool call and usage after the stop', () => {
    const translation = converseStreamToCanonical('nova');
    let state = translation.initial({ created: 0 });
    const out: Array<Record<string, unknown>> = [];
    const feed = (event: string, data: unknown) => {
      const step = translation.next(state, { event, data });
      state = step.state;
      out.push(...step.events.map((e) => e.data as Record<string, unknown>));
    };
    feed('messageStart', { role: 'assistant' });
    feed('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Look' } });
    feed('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'ing.' } });
    feed('contentBlockStop', { contentBlockIndex: 0 });
    feed('contentBlockStart', { contentBlockIndex: 1, start: { toolUse: { toolUseId: 't9', name: 'look' } } });
    feed('contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input: '{"path":' } } });
    feed('contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input: '"c"}' } } });
    feed('contentBlockStop', { contentBlockIndex: 1 });
    feed('messageStop', { stopReason: 'tool_use' });
    feed('metadata', { usage: { inputTokens: 5, outputTokens: 7 } });
    assert.deepEqual(out.map((e) => e.type), ['message_start', 'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop', 'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
    assert.deepEqual(out[5], { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 't9', name: 'look', input: {} } });
    assert.deepEqual(out[9], { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { input_tokens: 5, output_tokens: 7, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 } });
    assert.deepEqual(translation.finish(state), { events: [], complete: true });
  });

  test('a stream that stops before its stop is incomplete', () => {
    const translation = converseStreamToCanonical('nova');
    const step = translation.next(translation.initial({ created: 0 }), { event: 'contentBlockDelta', data: { contentBlockIndex: 0, delta: { text: 'cut' } } });
    assert.equal(translation.finish(step.state).complete, false);
  });
});
