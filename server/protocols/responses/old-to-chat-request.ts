// Responses request -> chat-completions request (a Responses client, a chat-completions upstream).
// instructions and system/developer items become system messages where they stand; assistant
// messages, reasoning and function calls that follow each other become one assistant message
// (text, reasoning_content, tool_calls); function outputs become tool messages.
import type { ChatContentPart, ChatMessage, ChatRequest, ChatToolCall, Json } from '../../../core/protocol/chat-types.ts';
import { isUnset } from '../shared/json-values.ts';
import { readResponsesInput, type Entry, type UserPart } from './input.ts';
import { reasoningEffort } from './reasoning.ts';
import { checkResponsesFields, readTextConfig } from './request-fields.ts';
import { chatToolChoiceFromResponses, chatToolsFromResponses } from './tools.ts';
import { refuse } from '../shared/translation-error.ts';

const TARGET = 'chat-completions';
const EFFORTS = new Set(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']);
// Same name, same meaning in chat-completions: copied as they are.
const SAME = ['temperature', 'top_p', 'parallel_tool_calls', 'user', 'safety_identifier', 'prompt_cache_key', 'prompt_cache_retention', 'service_tier'];

export interface ResponsesToChatOptions {
  upstreamModel: string;
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
}

function userContent(parts: UserPart[]): string | ChatContentPart[] {
  if (parts.length === 1 && parts[0]!.type === 'text') return parts[0]!.text;
  return parts.map((part): ChatContentPart => {
    switch (part.type) {
      case 'text':
        return { type: 'text', text: part.text };
      case 'image':
        return { type: 'image_url', image_url: part.detail === 'auto' ? { url: part.url } : { url: part.url, detail: part.detail } };
      case 'file':
        return { type: 'file', file: part.filename ? { file_data: part.data, filename: part.filename } : { file_data: part.data } };
    }
  });
}

function toolContent(output: string | UserPart[], field: string): string | ChatContentPart[] {
  if (typeof output === 'string') return output;
  return output.map((part, j) => {
    if (part.type !== 'text') refuse(`${field}.output[${j}].type`, 'chat-completions tool messages carry text only.');
    return { type: 'text', text: part.text };
  });
}

/** The assistant message being assembled from consecutive assistant-side items. */
interface Pending {
  texts: string[];
  refusals: string[];
  reasoning: string[];
  calls: ChatToolCall[];
}

function flush(pending: Pending | undefined, out: ChatMessage[]): undefined {
  if (!pending) return undefined;
  const message: ChatMessage = { role: 'assistant', content: pending.texts.length === 0 ? null : pending.texts.length === 1 ? pending.texts[0]! : pending.texts.map((text) => ({ type: 'text', text })) };
  if (pending.refusals.length) message.refusal = pending.refusals.join('\n\n');
  if (pending.reasoning.length) message.reasoning_content = pending.reasoning.join('\n\n');
  if (pending.calls.length) message.tool_calls = pending.calls;
  out.push(message);
  return undefined;
}

export function chatMessagesFromEntries(entries: Entry[], namespaced: (namespace: string, name: string) => string): ChatMessage[] {
  const out: ChatMessage[] = [];
  let pending: Pending | undefined;
  const assistant = () => (pending ??= { texts: [], refusals: [], reasoning: [], calls: [] });
  for (const entry of entries) {
    switch (entry.kind) {
      case 'system':
        pending = flush(pending, out);
        out.push({ role: 'system', content: entry.texts.length === 1 ? entry.texts[0]!.text : entry.texts.map((t) => ({ type: 'text', text: t.text })) });
        break;
      case 'user':
        pending = flush(pending, out);
        out.push({ role: 'user', content: userContent(entry.parts) });
        break;
      case 'output':
        pending = flush(pending, out);
        out.push({ role: 'tool', tool_call_id: entry.callId, content: toolContent(entry.output, entry.field) });
        break;
      case 'assistant':
        for (const part of entry.parts) (part.kind === 'refusal' ? assistant().refusals : assistant().texts).push(part.text);
        break;
      case 'reasoning':
        // A chat-completions upstream takes earlier reasoning as text; an encrypted value only means something to its issuer.
        if (entry.text) assistant().reasoning.push(entry.text);
        break;
      case 'call':
        assistant().calls.push({ id: entry.callId, type: 'function', function: { name: entry.namespace ? namespaced(entry.namespace, entry.name) : entry.name, arguments: entry.arguments } });
        break;
    }
  }
  flush(pending, out);
  return out;
}

export function responsesRequestToChat(body: Json, options: ResponsesToChatOptions, namespaced: (namespace: string, name: string) => string): ChatRequest {
  checkResponsesFields(body, TARGET, { read: SAME });
  const messages = chatMessagesFromEntries(readResponsesInput(body), namespaced);
  if (messages.length === 0) refuse('input', 'is empty; send at least one message.');
  const out: ChatRequest = { model: options.upstreamModel, messages };
  if (!isUnset(body.max_output_tokens)) out[options.maxTokensField] = body.max_output_tokens as number;
  if (body.stream === true) {
    out.stream = true;
    // The usage chunk feeds response.completed and the gateway's usage records.
    out.stream_options = { include_usage: true };
  }
  for (const key of SAME) if (!isUnset(body[key])) out[key] = body[key];
  const { tools } = chatToolsFromResponses(body.tools, TARGET);
  if (tools.length) out.tools = tools;
  const choice = chatToolChoiceFromResponses(body.tool_choice, TARGET);
  if (choice) out.tool_choice = choice;
  const effort = reasoningEffort(body, EFFORTS, TARGET);
  if (effort) out.reasoning_effort = effort;
  const text = readTextConfig(body);
  if (text.format?.type === 'json_object') out.response_format = { type: 'json_object' };
  else if (text.format) {
    const { type: _type, name, ...spec } = text.format;
    out.response_format = { type: 'json_schema', json_schema: { name: name ?? 'output', ...spec } };
  }
  if (text.verbosity) out.verbosity = text.verbosity;
  return out;
}
