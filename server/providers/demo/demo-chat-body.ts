// The demo model's answers in the chat-completions protocol: one JSON body or SSE chunks.
import { encodeSse } from '../../../core/protocol/sse.ts';
import { chunkPieces, type DemoCompletion } from './demo-text.ts';

export function chatCompletionJson(id: string, model: string, created: number, c: DemoCompletion): unknown {
  return {
    id,
    object: 'chat.completion',
    created,
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: c.text, refusal: null },
        logprobs: null,
        finish_reason: c.truncated ? 'length' : 'stop',
      },
    ],
    usage: { prompt_tokens: c.inputTokens, completion_tokens: c.outputTokens, total_tokens: c.inputTokens + c.outputTokens },
  };
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
