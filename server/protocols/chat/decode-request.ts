// chat-completions request -> canonical request (a chat client, an upstream of another protocol).
import type { ChatMessage, Json } from '../../../core/protocol/chat-types.ts';
import type { CanonicalRequest } from '../canonical/conversation.ts';
import { messagesFromChatMessages } from './decode-messages.ts';
import { asNumber, asRecord, asString, isRecord, isUnset } from '../shared/json-values.ts';
import { messagesReasoningFromChat } from './reasoning.ts';
import { checkRequestFields, isEmptyRecord, type InertRule } from '../shared/request-fields.ts';
import { messagesToolChoiceFromChat, messagesToolsFromChat } from './tools.ts';
import { refuse } from '../shared/translation-error.ts';


const TRANSLATED = new Set([
  'model', 'messages', 'max_tokens', 'max_completion_tokens', 'stream', 'stream_options', 'temperature', 'top_p', 'top_k',
  'stop', 'tools', 'tool_choice', 'parallel_tool_calls', 'user', 'safety_identifier', 'reasoning_effort', 'thinking', 'response_format',
]);

const INERT: Record<string, InertRule> = {
  n: { inert: (v) => v === 1, why: 'the messages protocol returns one choice; set n to 1.' },
  logprobs: { inert: (v) => v === false, why: 'the messages protocol returns no log probabilities.' },
  top_logprobs: { inert: (v) => v === 0, why: 'the messages protocol returns no log probabilities.' },
  presence_penalty: { inert: (v) => v === 0, why: 'the messages protocol has no presence penalty.' },
  frequency_penalty: { inert: (v) => v === 0, why: 'the messages protocol has no frequency penalty.' },
  logit_bias: { inert: isEmptyRecord, why: 'the messages protocol has no logit bias.' },
  seed: { inert: () => false, why: 'the messages protocol has no sampling seed.' },
  store: { inert: (v) => v === false, why: 'stored completions exist only at a chat-completions provider.' },
  metadata: { inert: isEmptyRecord, why: 'stored-completion metadata exists only at a chat-completions provider; use user for a caller id.' },
  modalities: { inert: (v) => Array.isArray(v) && v.length === 1 && v[0] === 'text', why: 'the messages protocol answers in text only.' },
  service_tier: { inert: (v) => v === 'auto', why: 'service tiers differ between the protocols; leave it out or use "auto".' },
  verbosity: { inert: () => false, why: 'the messages protocol has no verbosity setting.' },
  audio: { inert: () => false, why: 'the messages protocol answers in text only.' },
  prediction: { inert: () => false, why: 'the messages protocol has no predicted outputs.' },
  web_search_options: { inert: () => false, why: 'web search is a tool of the chat-completions provider.' },
  functions: { inert: () => false, why: 'legacy functions are not translated; use tools.' },
  function_call: { inert: () => false, why: 'legacy function_call is not translated; use tool_choice.' },
  prompt_cache_key: { inert: () => false, why: 'the messages protocol marks cache points with cache_control on content parts instead.' },
  prompt_cache_retention: { inert: () => false, why: 'the messages protocol sets cache lifetimes with cache_control on content parts instead.' },
};

export function decodeChatRequest(body: Json): CanonicalRequest {
  checkRequestFields(body, TRANSLATED, INERT, 'the messages protocol');
  if (!Array.isArray(body.messages)) refuse('messages', 'must be a list.');
  const { system, messages } = messagesFromChatMessages(body.messages as ChatMessage[]);
  const out: CanonicalRequest = { messages };
  const maxTokens = asNumber(body.max_completion_tokens) ?? asNumber(body.max_tokens);
  if (maxTokens !== undefined) out.max_tokens = maxTokens;
  if (system !== undefined) out.system = system;
  if (body.stream === true) out.stream = true;

  const temperature = asNumber(body.temperature);
  if (temperature !== undefined) out.temperature = temperature;
  if (!isUnset(body.top_p)) out.top_p = body.top_p as number;
  // top_k is no chat-completions field, but some chat clients send it for upstreams that know it.
  if (!isUnset(body.top_k)) out.top_k = body.top_k as number;
  if (typeof body.stop === 'string') out.stop_sequences = [body.stop];
  else if (Array.isArray(body.stop)) out.stop_sequences = body.stop.map(String);

  if (!isUnset(body.tools)) out.tools = messagesToolsFromChat(body.tools);
  const choice = messagesToolChoiceFromChat(body.tool_choice, body.parallel_tool_calls);
  if (choice) out.tool_choice = choice;

  const { thinking, effort } = messagesReasoningFromChat(body);
  if (thinking) out.thinking = thinking;
  const format = responseFormat(body.response_format);
  if (effort || format) out.output_config = { ...(effort ? { effort } : {}), ...(format ? { format } : {}) };

  const user = asString(body.safety_identifier) ?? asString(body.user);
  if (body.user !== undefined && body.safety_identifier !== undefined && body.user !== body.safety_identifier) {
    refuse('user', 'the messages protocol has one caller id (metadata.user_id); user and safety_identifier differ.');
  }
  if (user) out.metadata = { user_id: user };
  return out;
}

function responseFormat(value: unknown): { type: 'json_schema'; schema: Json } | undefined {
  if (isUnset(value)) return undefined;
  const format = asRecord(value);
  if (format.type === 'text') return undefined;
  if (format.type !== 'json_schema') refuse('response_format.type', `"${String(format.type)}" has no messages-protocol equivalent; use json_schema with a schema.`);
  const spec = asRecord(format.json_schema);
  if (!isRecord(spec.schema)) refuse('response_format.json_schema.schema', 'a JSON schema is required.');
  if (!isUnset(spec.description)) refuse('response_format.json_schema.description', 'the messages protocol takes the schema only; put the description into the schema.');
  // The name only identifies the format at a chat-completions provider; the schema is the content.
  return { type: 'json_schema', schema: spec.schema };
}
