// Token counts in the Responses shape. input_tokens counts the whole prompt, cached part included
// (like chat-completions' prompt_tokens); the messages protocol counts cache reads and cache writes
// apart, so they are added back in, and cache writes go to input_tokens_details.cache_write_tokens.
import type { Json } from '../../../core/protocol/chat-types.ts';
import type { ResponsesUsage } from '../../../core/protocol/responses-types.ts';
import { asNumber, asRecord } from '../shared/json-values.ts';

function usage(input: number, cached: number, written: number, output: number, reasoning: number): ResponsesUsage {
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: cached, cache_write_tokens: written },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: reasoning },
    total_tokens: input + output,
  };
}

export function responsesUsageFromMessages(value: Json): ResponsesUsage {
  const read = asNumber(value.cache_read_input_tokens) ?? 0;
  const written = asNumber(value.cache_creation_input_tokens) ?? 0;
  const input = (asNumber(value.input_tokens) ?? 0) + read + written;
  const thinking = asNumber(asRecord(value.output_tokens_details).thinking_tokens) ?? 0;
  return usage(input, read, written, asNumber(value.output_tokens) ?? 0, thinking);
}
