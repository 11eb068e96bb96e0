// canonical request -> chat-completions request (a client of another protocol, a chat upstream).
// OpenAI-family extras (from a Responses client) are chat-completions fields and are set as they are.
import type { ChatRequest, Json } from '../../../core/protocol/chat-types.ts';
import { asNumber, asRecord, isRecord, isUnset } from '../shared/json-values.ts';
import { chatMessagesFromMessages } from './encode-messages.ts';
import { chatReasoningFromMessages } from './reasoning.ts';
import { checkRequestFields, type InertRule } from '../shared/request-fields.ts';
import { chatToolChoiceFromMessages, chatToolsFromMessages } from './tools.ts';
import { refuse } from '../shared/translation-error.ts';
import type { CanonicalExtras, CanonicalRequest } from '../canonical/conversation.ts';

export interface ToChatOptions {
  upstreamModel: string;
  /** Older chat-completions servers know max_tokens; newer models want max_completion_tokens. */
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
}

/** OpenAI-family extras: the chat-completions field each one sets. */
function applyExtras(out: ChatRequest, extras: CanonicalExtras | undefined): void {
  for (const [name, { value }] of Object.entries(extras?.openai ?? {})) {
    // Per-part extras: image details are set on the part, unsigned reasoning travels as reasoning_content.
    if (name.includes(':')) continue;
    if (name === 'json_object') out.response_format = { type: 'json_object' };
    else if (name.startsWith('format_')) {
      // The json_schema's name, strictness and description, which the canonical format (a schema) lacks.
      const format = out.response_format as { json_schema?: Json } | undefined;
      if (format?.json_schema) format.json_schema[name.slice('format_'.length)] = value;
    } else out[name] = value;
  }
}

const TRANSLATED = new Set([
  'model', 'max_tokens', 'messages', 'system', 'stream', 'temperature', 'top_p', 'stop_sequences', 'tools', 'tool_choice',
  'metadata', 'thinking', 'output_config', 'cache_control',
]);

const INERT: Record<string, InertRule> = {
  top_k: { inert: () => false, why: 'chat-completions has no top_k; use temperature or top_p.' },
  service_tier: { inert: (v) => v === 'auto', why: 'service tiers differ between the protocols; leave it out or use "auto".' },
  speed: { inert: (v) => v === 'standard', why: 'chat-completions has no speed setting.' },
  container: { inert: () => false, why: 'containers exist only at the messages provider.' },
  mcp_servers: { inert: () => false, why: 'MCP servers are connected by the messages provider; a chat-completions upstream has none.' },
  context_management: {
    // Clearing thinking while keeping all of it changes nothing; any other edit runs at the messages provider.
    inert: (v) => isRecord(v) && Array.isArray(v.edits) && v.edits.every((e) => isRecord(e) && String(e.type).startsWith('clear_thinking') && e.keep === 'all'),
    why: 'context management edits other than keeping all thinking run at the messages provider.',
  },
  inference_geo: { inert: () => false, why: 'chat-completions has no inference region setting.' },
};

export function encodeChatRequest(request: CanonicalRequest, options: ToChatOptions): ChatRequest {
  const { extras, ...body } = request as CanonicalRequest & Json;
  checkRequestFields(body, TRANSLATED, INERT, 'chat-completions');
  const maxTokens = asNumber(body.max_tokens);
  if (!isUnset(body.max_tokens) && (maxTokens === undefined || maxTokens < 1)) refuse('max_tokens', 'chat-completions needs at least 1 (a cache pre-warm with 0 exists only at the messages provider).');
  const out: ChatRequest = { model: options.upstreamModel, messages: chatMessagesFromMessages(body.system, body.messages) };
  if (maxTokens !== undefined) out[options.maxTokensField] = maxTokens;
  if (body.stream === true) {
    out.stream = true;
    // The usage chunk feeds the final message_delta and the gateway's usage records.
    out.stream_options = { include_usage: true };
  }
  if (!isUnset(body.temperature)) out.temperature = body.temperature as number;
  if (!isUnset(body.top_p)) out.top_p = body.top_p as number;
  if (Array.isArray(body.stop_sequences) && body.stop_sequences.length > 0) out.stop = body.stop_sequences.map(String);

  if (!isUnset(body.tools)) out.tools = chatToolsFromMessages(body.tools);
  Object.assign(out, chatToolChoiceFromMessages(body.tool_choice));

  const config = asRecord(body.output_config);
  for (const key of Object.keys(config)) {
    if (key !== 'effort' && key !== 'format' && !isUnset(config[key])) refuse(`output_config.${key}`, 'chat-completions has no such setting.');
  }
  const effort = chatReasoningFromMessages(body.thinking, config);
  if (effort) out.reasoning_effort = effort;
  if (!isUnset(config.format)) {
    const format = asRecord(config.format);
    if (format.type !== 'json_schema' || !isRecord(format.schema)) refuse('output_config.format', 'must be {"type": "json_schema", "schema": {...}}.');
    out.response_format = { type: 'json_schema', json_schema: { name: 'output', schema: format.schema, strict: true } };
  }

  const metadata = asRecord(body.metadata);
  for (const key of Object.keys(metadata)) {
    if (key !== 'user_id' && !isUnset(metadata[key])) refuse(`metadata.${key}`, 'chat-completions takes a caller id (user) only.');
  }
  if (typeof metadata.user_id === 'string') out.user = metadata.user_id;
  applyExtras(out, extras);
  return out;
}
