// Token counts in each protocol's shape. The messages protocol counts cache reads and cache
// writes apart from input_tokens; chat-completions counts them inside prompt_tokens and names
// the cached part in prompt_tokens_details. Cache writes have no chat field, so they travel in
// `cache_creation_input_tokens` beside it (and cache reads in `cache_read_input_tokens`).
import type { ChatUsage, Json } from '../../../core/protocol/chat-types.ts';
import type { MessagesUsage } from '../../../core/protocol/messages-types.ts';
import { asNumber, asRecord } from '../shared/json-values.ts';

export function chatUsageFromMessages(usage: Partial<MessagesUsage> | Json): ChatUsage {
  const input = asNumber(usage.input_tokens) ?? 0;
  const read = asNumber(usage.cache_read_input_tokens) ?? 0;
  const creation = asNumber(usage.cache_creation_input_tokens) ?? 0;
  const output = asNumber(usage.output_tokens) ?? 0;
  const prompt = input + read + creation;
  const chat: ChatUsage = {
    prompt_tokens: prompt,
    completion_tokens: output,
    total_tokens: prompt + output,
    prompt_tokens_details: { cached_tokens: read },
    cache_read_input_tokens: read,
    cache_creation_input_tokens: creation,
  };
  const thinking = asNumber(asRecord(usage.output_tokens_details).thinking_tokens);
  if (thinking !== undefined) chat.completion_tokens_details = { reasoning_tokens: thinking };
  return chat;
}

export function messagesUsageFromChat(usage: ChatUsage | Json | null | undefined): MessagesUsage {
  const u = asRecord(usage);
  const prompt = asNumber(u.prompt_tokens) ?? 0;
  const details = asRecord(u.prompt_tokens_details);
  // DeepSeek-style servers name cache hits prompt_cache_hit_tokens.
  const read = asNumber(details.cached_tokens) ?? asNumber(u.cache_read_input_tokens) ?? asNumber(u.prompt_cache_hit_tokens) ?? 0;
  const creation = asNumber(u.cache_creation_input_tokens) ?? 0;
  const result: MessagesUsage = {
    input_tokens: Math.max(0, prompt - read - creation),
    output_tokens: asNumber(u.completion_tokens) ?? 0,
    cache_creation_input_tokens: creation,
    cache_read_input_tokens: read,
  };
  const reasoning = asNumber(asRecord(u.completion_tokens_details).reasoning_tokens);
  if (reasoning !== undefined && reasoning > 0) result.output_tokens_details = { thinking_tokens: reasoning };
  return result;
}
