// Converse usage -> canonical usage: Converse's inputTokens leave out the cached part, as the
// messages protocol's input_tokens do; cache writes are of the default (5-minute) class.
import { asNumber, asRecord } from '../shared/json-values.ts';

export function canonicalUsageFromConverse(value: unknown): { input_tokens: number; output_tokens: number; cache_read_input_tokens: number; cache_creation_input_tokens: number } {
  const usage = asRecord(value);
  return {
    input_tokens: asNumber(usage.inputTokens) ?? 0,
    output_tokens: asNumber(usage.outputTokens) ?? 0,
    cache_read_input_tokens: asNumber(usage.cacheReadInputTokens) ?? 0,
    cache_creation_input_tokens: asNumber(usage.cacheWriteInputTokens) ?? 0,
  };
}
