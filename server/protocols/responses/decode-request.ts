// Responses request -> canonical request (a Responses client, an upstream of another protocol).
// instructions and leading system/developer items become `system`; user items and function
// outputs (as tool_result blocks, first in their turn) make user turns; assistant text, reasoning
// (a thinking block, returned with the signature the gateway handed out as encrypted_content) and
// function calls (tool_use blocks) make assistant turns.
import type { ChatToolChoice, Json } from '../../../core/protocol/chat-types.ts';
import type { ContentBlock, MessageParam, TextBlock } from '../../../core/protocol/messages-types.ts';
import type { CanonicalRequest, ForeignField } from '../canonical/conversation.ts';
import { documentBlockFromData, imageBlockFromUrl } from '../chat/images.ts';
import { asNumber, isRecord, isUnset, parseJsonText } from '../shared/json-values.ts';
import { readResponsesInput, type Entry, type UserPart } from './input.ts';
import { messagesThinkingFromEffort, reasoningEffort, thinkingFromItem } from './reasoning.ts';
import { callerId, checkResponsesFields, readTextConfig } from './request-fields.ts';
import { chatToolChoiceFromResponses, chatToolsFromResponses } from './tools.ts';
import { messagesToolChoiceFromChat, messagesToolsFromChat } from '../chat/tools.ts';
import { refuse } from '../shared/translation-error.ts';
import { recordOrigin, setImageDetail } from '../shared/origins.ts';

const TARGET = 'the upstream protocol';
/** Efforts the canonical model has; `minimal` exists only in the OpenAI family and travels as an extra. */
const EFFORTS = new Set(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']);
const EPHEMERAL = { type: 'ephemeral' };


type Block = ContentBlock | ({ type: string } & Json);

function textBlock(text: string, breakpoint: boolean): TextBlock {
  // An explicit cache breakpoint is what cache_control marks in the messages protocol.
  return breakpoint ? { type: 'text', text, cache_control: EPHEMERAL } : { type: 'text', text };
}

/** OpenAI-family fields met inside the input (image details), collected for the request's extras. */
type Extras = Record<string, ForeignField>;

function userBlock(part: UserPart, extras: Extras): Block {
  switch (part.type) {
    case 'text':
      return textBlock(part.text, part.breakpoint);
    case 'image': {
      const block = imageBlockFromUrl(part.url, `${part.field}.image_url`);
      if (part.detail === 'auto') return block;
      extras[`image_detail:${part.field}`] = { field: `${part.field}.detail`, value: part.detail };
      return setImageDetail(block, part.detail);
    }
    case 'file':
      return documentBlockFromData(part.data, part.filename, `${part.field}.file_data`);
  }
}

function toolResult(entry: Extract<Entry, { kind: 'output' }>, extras: Extras): Block {
  if (typeof entry.output === 'string') return { type: 'tool_result', tool_use_id: entry.callId, content: entry.output };
  return { type: 'tool_result', tool_use_id: entry.callId, content: entry.output.map((part, j) => recordOrigin(userBlock(part, extras), `${entry.field}.output[${j}]`)) };
}

function assistantBlocks(entry: Exclude<Entry, { kind: 'system' | 'user' | 'output' }>, namespaced: (namespace: string, name: string) => string, extras: Extras): Block[] {
  switch (entry.kind) {
    case 'assistant':
      return entry.parts.filter((p) => p.text !== '').map((p) => ({ type: 'text', text: p.text }));
    case 'reasoning': {
      if (entry.text === '' && entry.encrypted === undefined) return [];
      const thinking = thinkingFromItem(entry.text, entry.encrypted);
      if (thinking) return [thinking];
      // Reasoning with no signature (from a chat upstream) goes back as text to the OpenAI family only.
      extras[`unsigned_thinking:${entry.field}`] = { field: `${entry.field}.encrypted_content`, value: entry.text };
      return [{ type: 'thinking', thinking: entry.text, signature: '' }];
    }
    case 'call': {
      const input = entry.arguments.trim() === '' ? {} : parseJsonText(entry.arguments);
      if (!isRecord(input)) refuse(`${entry.field}.arguments`, 'must be a JSON object; the messages protocol stores tool input as an object.');
      return [{ type: 'tool_use', id: entry.callId, name: entry.namespace ? namespaced(entry.namespace, entry.name) : entry.name, input }];
    }
  }
}

export function messagesFromEntries(entries: Entry[], namespaced: (namespace: string, name: string) => string, extras: Extras = {}): { system: TextBlock[]; messages: MessageParam[] } {
  const system: TextBlock[] = [];
  const messages: MessageParam[] = [];
  let started = false;
  const append = (role: 'user' | 'assistant', blocks: Block[], results = false) => {
    if (blocks.length === 0) return;
    const last = messages.at(-1);
    if (!last || last.role !== role) {
      messages.push({ role, content: blocks });
      return;
    }
    const content = last.content as Block[];
    // tool_result blocks open their user turn.
    if (results) {
      const firstOther = content.findIndex((b) => b.type !== 'tool_result');
      last.content = firstOther === -1 ? [...content, ...blocks] : [...content.slice(0, firstOther), ...blocks, ...content.slice(firstOther)];
    } else last.content = [...content, ...blocks];
  };
  for (const entry of entries) {
    switch (entry.kind) {
      case 'system':
        if (started) {
          const field = entry.field === 'instructions' ? 'instructions' : `${entry.field}.role`;
          refuse(field, 'the messages protocol takes one system prompt before the conversation; move system and developer messages to the start.');
        }
        system.push(...entry.texts.map((t) => textBlock(t.text, t.breakpoint)));
        break;
      case 'user':
        started = true;
        append('user', entry.parts.map((part) => userBlock(part, extras)));
        break;
      case 'output':
        started = true;
        append('user', [toolResult(entry, extras)], true);
        break;
      default:
        started = true;
        append('assistant', assistantBlocks(entry, namespaced, extras));
    }
  }
  return { system, messages };
}

export function decodeResponsesRequest(body: Json, namespaced: (namespace: string, name: string) => string): CanonicalRequest {
  checkResponsesFields(body, TARGET, { read: ['prompt_cache_key', 'prompt_cache_retention', 'service_tier'] });
  const openai: Extras = {};
  const { system, messages } = messagesFromEntries(readResponsesInput(body), namespaced, openai);
  if (messages.length === 0) refuse('input', 'is empty; send at least one message.');
  const out: CanonicalRequest = { messages };
  const extra = (name: string, field: string, value: unknown) => {
    if (!isUnset(value)) openai[name] = { field, value };
  };
  if (!isUnset(body.max_output_tokens)) {
    const maxTokens = asNumber(body.max_output_tokens);
    if (maxTokens === undefined || maxTokens < 1) refuse('max_output_tokens', 'must be a whole number of at least 1.');
    out.max_tokens = maxTokens;
  }
  if (system.length) out.system = system.length === 1 && !system[0]!.cache_control ? system[0]!.text : system;
  if (body.stream === true) out.stream = true;
  const temperature = asNumber(body.temperature);
  if (temperature !== undefined) out.temperature = temperature;
  if (!isUnset(body.top_p)) out.top_p = body.top_p as number;

  const { tools } = chatToolsFromResponses(body.tools, TARGET);
  if (tools.length) out.tools = messagesToolsFromChat(tools);
  const choice = messagesToolChoiceFromChat(chatToolChoiceFromResponses(body.tool_choice, TARGET) as ChatToolChoice | undefined, body.parallel_tool_calls);
  if (choice) out.tool_choice = choice;
  // Parallel calls are the canonical default; said explicitly, an OpenAI upstream hears it too.
  if (body.parallel_tool_calls === true) extra('parallel_tool_calls', 'parallel_tool_calls', true);

  const requested = reasoningEffort(body, EFFORTS, TARGET);
  const { thinking, effort } = messagesThinkingFromEffort(requested === 'minimal' ? undefined : requested);
  if (requested === 'minimal') extra('reasoning_effort', 'reasoning.effort', requested);
  if (thinking) out.thinking = thinking;
  const text = readTextConfig(body);
  if (text.format?.type === 'json_object') extra('json_object', 'text.format.type', true);
  extra('verbosity', 'text.verbosity', text.verbosity);
  const format = text.format?.type === 'json_schema' ? { type: 'json_schema' as const, schema: text.format.schema } : undefined;
  if (text.format?.type === 'json_schema') {
    extra('format_name', 'text.format.name', text.format.name);
    extra('format_strict', 'text.format.strict', text.format.strict);
    extra('format_description', 'text.format.description', text.format.description);
  }
  if (effort || format) out.output_config = { ...(effort ? { effort } : {}), ...(format ? { format } : {}) };
  for (const name of ['prompt_cache_key', 'prompt_cache_retention', 'service_tier']) extra(name, name, body[name]);

  const user = callerId(body, TARGET);
  if (user) out.metadata = { user_id: user };
  if (Object.keys(openai).length > 0) out.extras = { openai };
  return out;
}
