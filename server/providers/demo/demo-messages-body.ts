// The demo model's answers in the messages protocol: one JSON body or the SSE event sequence.
import { encodeSse } from '../../../core/protocol/sse.ts';
import { chunkPieces, countTokens, type DemoCompletion } from './demo-text.ts';
import { argumentPieces, type DemoToolCall } from './demo-tool-call.ts';

export function messageJson(id: string, model: string, c: DemoCompletion): unknown {
  return {
    id,
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'text', text: c.text }],
    stop_reason: c.truncated ? 'max_tokens' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: c.inputTokens, output_tokens: c.outputTokens },
  };
}

export function messageFrames(id: string, model: string, c: DemoCompletion): string[] {
  const frames = [
    encodeSse(
      {
        type: 'message_start',
        message: {
          id,
          type: 'message',
          role: 'assistant',
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: c.inputTokens, output_tokens: 0 },
        },
      },
      'message_start',
    ),
    encodeSse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start'),
    encodeSse({ type: 'ping' }, 'ping'),
  ];
  for (const text of chunkPieces(c.pieces)) {
    frames.push(encodeSse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }, 'content_block_delta'));
  }
  frames.push(encodeSse({ type: 'content_block_stop', index: 0 }, 'content_block_stop'));
  frames.push(
    encodeSse(
      {
        type: 'message_delta',
        delta: { stop_reason: c.truncated ? 'max_tokens' : 'end_turn', stop_sequence: null },
        usage: { output_tokens: c.outputTokens },
      },
      'message_delta',
    ),
  );
  frames.push(encodeSse({ type: 'message_stop' }, 'message_stop'));
  return frames;
}

/** A forced tool call as one messages answer. */
export function messageToolJson(id: string, model: string, call: DemoToolCall, inputTokens: number): unknown {
  return {
    id,
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'tool_use', id: `toolu_${id.slice(4)}`, name: call.name, input: JSON.parse(call.arguments) }],
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: inputTokens, output_tokens: countTokens(call.arguments) },
  };
}

/** A forced tool call as a messages stream: the call's block, its arguments in pieces. */
export function messageToolFrames(id: string, model: string, call: DemoToolCall, inputTokens: number): string[] {
  const message = { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: inputTokens, output_tokens: 0 } };
  const frames = [
    encodeSse({ type: 'message_start', message }, 'message_start'),
    encodeSse({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: `toolu_${id.slice(4)}`, name: call.name, input: {} } }, 'content_block_start'),
  ];
  for (const piece of argumentPieces(call.arguments)) {
    frames.push(encodeSse({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: piece } }, 'content_block_delta'));
  }
  frames.push(encodeSse({ type: 'content_block_stop', index: 0 }, 'content_block_stop'));
  frames.push(encodeSse({ type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: countTokens(call.arguments) } }, 'message_delta'));
  frames.push(encodeSse({ type: 'message_stop' }, 'message_stop'));
  return frames;
}
