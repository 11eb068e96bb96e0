// The demo model's answers in the chat-completions protocol: one JSON body or SSE chunks.
import { encodeSse } from '../../../core/protocol/sse.ts';
import { chunkPieces, countTokens, type DemoCompletion } from './demo-text.ts';
import { argumentPieces, type DemoToolCall } from './demo-tool-call.ts';

/** One chat.completion body: the message, why it ended, and the usage. */
function completionBody(id: string, model: string, created: number, message: Record<string, unknown>, finish: string, input: number, output: number): unknown {
  return {
    id,
    object: 'chat.completion',
    created,
    model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finish }],
    usage: { prompt_tokens: input, completion_tokens: output, total_tokens: input + output },
  };
}

export function chatCompletionJson(id: string, model: string, created: number, c: DemoCompletion): unknown {
  return completionBody(id, model, created, { role: 'assistant', content: c.text, refusal: null }, c.truncated ? 'length' : 'stop', c.inputTokens, c.outputTokens);
}

/** SSE frames in order; the usage chunk only when the client asked for it. */
export function chatCompletionFrames(id: string, model: string, created: number, c: DemoCompletion, includeUsage: boolean): string[] {
  const chunk = (delta: Record<string, unknown>, finish: string | null, usage?: unknown) => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...(includeUsage ? { usage: usage ?? null } : {}),
  });
  const frames = [encodeSse(chunk({ role: 'assistant', content: '', refusal: null }, null))];
  for (const text of chunkPieces(c.pieces)) frames.push(encodeSse(chunk({ content: text }, null)));
  frames.push(encodeSse(chunk({}, c.truncated ? 'length' : 'stop')));
  if (includeUsage) {
    frames.push(
      encodeSse({
        id,
        object: 'chat.completion.chunk',
        created,
        model,
        choices: [],
        usage: { prompt_tokens: c.inputTokens, completion_tokens: c.outputTokens, total_tokens: c.inputTokens + c.outputTokens },
      }),
    );
  }
  frames.push('data: [DONE]\n\n');
  return frames;
}

/** A forced tool call as one chat-completions answer. */
export function chatToolJson(id: string, model: string, created: number, call: DemoToolCall, inputTokens: number): unknown {
  const toolCalls = [{ id: `call_${id.slice(9)}`, type: 'function', function: { name: call.name, arguments: call.arguments } }];
  return completionBody(id, model, created, { role: 'assistant', content: null, refusal: null, tool_calls: toolCalls }, 'tool_calls', inputTokens, countTokens(call.arguments));
}

/** A forced tool call as chat-completions chunks: id and name first, then the arguments in pieces. */
export function chatToolFrames(id: string, model: string, created: number, call: DemoToolCall, inputTokens: number, includeUsage: boolean): string[] {
  const outputTokens = countTokens(call.arguments);
  const chunk = (delta: Record<string, unknown>, finish: string | null) => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...(includeUsage ? { usage: null } : {}),
  });
  const frames = [encodeSse(chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: `call_${id.slice(9)}`, type: 'function', function: { name: call.name, arguments: '' } }] }, null))];
  for (const piece of argumentPieces(call.arguments)) frames.push(encodeSse(chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] }, null)));
  frames.push(encodeSse(chunk({}, 'tool_calls')));
  if (includeUsage) {
    frames.push(encodeSse({ id, object: 'chat.completion.chunk', created, model, choices: [], usage: { prompt_tokens: inputTokens, completion_tokens: outputTokens, total_tokens: inputTokens + outputTokens } }));
  }
  frames.push('data: [DONE]\n\n');
  return frames;
}
