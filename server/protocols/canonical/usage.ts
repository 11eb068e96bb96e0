// Token usage with every class apart, as the canonical model keeps it. A protocol's own usage
// object is read into this and written from it; a class an upstream does not report is 0.
import type { Json } from '../../../core/protocol/chat-types.ts';
import { asNumber, asRecord } from '../shared/json-values.ts';

export interface UsageClasses {
  /** Input read at the full price (not from the cache, not written to it). */
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite5m: number;
  cacheWrite1h: number;
  /** Part of `output` spent on reasoning, where the upstream says. */
  reasoning: number;
}

/** Classes from canonical (messages-spelled) usage; an aggregate cache write counts as five-minute writes. */
export function usageClasses(usage: unknown): UsageClasses {
  const u = asRecord(usage);
  const creation = asRecord(u.cache_creation);
  const total = asNumber(u.cache_creation_input_tokens) ?? 0;
  const oneHour = asNumber(creation.ephemeral_1h_input_tokens) ?? 0;
  const fiveMinutes = asNumber(creation.ephemeral_5m_input_tokens) ?? Math.max(0, total - oneHour);
  return {
    input: asNumber(u.input_tokens) ?? 0,
    output: asNumber(u.output_tokens) ?? 0,
    cacheRead: asNumber(u.cache_read_input_tokens) ?? 0,
    cacheWrite5m: fiveMinutes,
    cacheWrite1h: oneHour,
    reasoning: asNumber(asRecord(u.output_tokens_details).thinking_tokens) ?? 0,
  };
}

/** Canonical (messages-spelled) usage from classes. */
export function canonicalUsage(classes: UsageClasses): Json {
  const usage: Json = {
    input_tokens: classes.input,
    output_tokens: classes.output,
    cache_creation_input_tokens: classes.cacheWrite5m + classes.cacheWrite1h,
    cache_read_input_tokens: classes.cacheRead,
  };
  if (classes.cacheWrite1h > 0) usage.cache_creation = { ephemeral_5m_input_tokens: classes.cacheWrite5m, ephemeral_1h_input_tokens: classes.cacheWrite1h };
  if (classes.reasoning > 0) usage.output_tokens_details = { thinking_tokens: classes.reasoning };
  return usage;
}
