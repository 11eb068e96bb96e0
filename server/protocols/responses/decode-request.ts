// Responses request -> messages-protocol request (a Responses client, a messages upstream).
// instructions and leading system/developer items become `system`; user items and function
// outputs (as tool_result blocks, first in their turn) make user turns; assistant text, reasoning
// (a thinking block, returned with the signature the gateway handed out as encrypted_content) and
// function calls (tool_use blocks) make assistant turns.
import type { ChatToolChoice, Json } from '../../../core/protocol/chat-types.ts';
import type { ContentBlock, MessageParam, MessagesRequest, TextBlock } from '../../../core/protocol/messages-types.ts';
import { documentBlockFromData, imageBlockFromUrl } from '../chat/images.ts';
import { asNumber, isRecord, isUnset, parseJsonText } from '../shared/json-values.ts';
import { readResponsesInput, type Entry, type UserPart } from './input.ts';
import { messagesThinkingFromEffort, reasoningEffort, thinkingFromItem } from './reasoning.ts';
import { callerId, checkResponsesFields, readTextConfig } from './request-fields.ts';
import { chatToolChoiceFromResponses, chatToolsFromResponses } from './tools.ts';
import { messagesToolChoiceFromChat, messagesToolsFromChat } from '../chat/tools.ts';
import { refuse } from '../shared/translation-error.ts';

const TARGET = 'the messages protocol';
const EFFORTS = new Set(['none', 'low', 'medium', 'high', 'xhigh']);
const EPHEMERAL = { type: 'ephemeral' };

export interface ResponsesToMessagesOptions {
  upstreamModel: string;
  /** max_tokens is required by the messages protocol; used when the client sent no max_output_tokens. */
  defaultMaxTokens: number;
}

type Block = ContentBlock | ({ type: string } & Json);

function textBlock(text: string, breakpoint: boolean): TextBlock {
  // An explicit cache breakpoint is what cache_control marks in the messages protocol.
  return breakpoint ? { type: 'text', text, cache_control: EPHEMERAL } : { type: 'text', text };
}

function userBlock(part: UserPart): Block {
  switch (part.type) {
    case 'text':
      return textBlock(part.text, part.breakpoint);
    case 'image':
      if (part.detail !== 'auto') refuse(`${part.field}.detail`, 'the messages protocol has no image detail setting; leave detail out or set it to "auto".');
      return imageBlockFromUrl(part.url, `${part.field}.image_url`);
    case 'file':
      return documentBlockFromData(part.data, part.filename, `${part.field}.file_data`);
  }
}

function toolResult(entry: Extract<Entry, { kind: 'output' }>): Block {
  if (typeof entry.output === 'string') return { type: 'tool_result', tool_use_id: entry.callId, content: entry.output };
  return { type: 'tool_result', tool_use_id: entry.callId, content: entry.output.map(userBlock) };
}

function assistantBlocks(entry: Exclude<Entry, { kind: 'system' | 'user' | 'output' }>, namespaced: (namespace: string, name: string) => string): Block[] {
  switch (entry.kind) {
    case 'assistant':
      return entry.parts.filter((p) => p.text !== '').map((p) => ({ type: 'text', text: p.text }));
    case 'reasoning': {
      if (entry.text === '' && entry.encrypted === undefined) return [];
      const thinking = thinkingFromItem(entry.text, entry.encrypted);
      if (!thinking) {
        refuse(`${entry.field}.encrypted_content`, 'the messages protocol takes earlier thinking back only with its signature; send the reasoning item as the gateway returned it (with encrypted_content), or leave it out.');
      }
      return [thinking];
    }
    case 'call': {
      const input = entry.arguments.trim() === '' ? {} : parseJsonText(entry.arguments);
      if (!isRecord(input)) refuse(`${entry.field}.arguments`, 'must be a JSON object; the messages protocol stores tool input as an object.');
      return [{ type: 'tool_use', id: entry.callId, name: entry.namespace ? namespaced(entry.namespace, entry.name) : entry.name, input }];
    }
  }
}

export function messagesFromEntries(entries: Entry[], namespaced: (namespace: string, name: string) => string): { system: TextBlock[]; messages: MessageParam[] } {
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
        append('user', entry.parts.map(userBlock));
        break;
      case 'output':
        started = true;
        append('user', [toolResult(entry)], true);
        break;
      default:
        started = true;
        append('assistant', assistantBlocks(entry, namespaced));
    }
  }
  return { system, messages };
}

export function responsesRequestToMessages(body: Json, options: ResponsesToMessagesOptions, namespaced: (namespace: string, name: string) => string): MessagesRequest {
  checkResponsesFields(body, TARGET, {
    read: ['prompt_cache_key'],
    inert: {
      service_tier: { inert: (v) => v === 'auto', why: 'service tiers differ between the protocols; leave it out or use "auto".' },
      prompt_cache_retention: { inert: () => false, why: 'the messages protocol sets cache lifetimes with cache_control on content parts instead.' },
    },
  });
  const { system, messages } = messagesFromEntries(readResponsesInput(body), namespaced);
  if (messages.length === 0) refuse('input', 'is empty; send at least one message.');
  const maxTokens = isUnset(body.max_output_tokens) ? options.defaultMaxTokens : asNumber(body.max_output_tokens);
  if (maxTokens === undefined || maxTokens < 1) refuse('max_output_tokens', 'must be a whole number of at least 1.');
  const out: MessagesRequest = { model: options.upstreamModel, max_tokens: maxTokens, messages };
  if (system.length) out.system = system.length === 1 && !system[0]!.cache_control ? system[0]!.text : system;
  if (body.stream === true) out.stream = true;
  const temperature = asNumber(body.temperature);
  if (temperature !== undefined) {
    if (temperature > 1) refuse('temperature', `the messages protocol takes 0 to 1, not ${temperature}.`);
    out.temperature = temperature;
  }
  if (!isUnset(body.top_p)) out.top_p = body.top_p as number;

  const { tools } = chatToolsFromResponses(body.tools, TARGET);
  if (tools.length) out.tools = messagesToolsFromChat(tools);
  const choice = messagesToolChoiceFromChat(chatToolChoiceFromResponses(body.tool_choice, TARGET) as ChatToolChoice | undefined, body.parallel_tool_calls);
  if (choice) out.tool_choice = choice;

  const { thinking, effort } = messagesThinkingFromEffort(reasoningEffort(body, EFFORTS, TARGET));
  if (thinking) out.thinking = thinking;
  const text = readTextConfig(body);
  if (text.format?.type === 'json_object') refuse('text.format.type', 'the messages protocol has no free JSON mode; use json_schema with a schema.');
  if (text.format?.description) refuse('text.format.description', 'the messages protocol takes the schema only; put the description into the schema.');
  if (!isUnset(text.verbosity) && text.verbosity !== 'medium') refuse('text.verbosity', 'the messages protocol has no verbosity setting.');
  const format = text.format ? { type: 'json_schema' as const, schema: text.format.schema } : undefined;
  if (effort || format) out.output_config = { ...(effort ? { effort } : {}), ...(format ? { format } : {}) };

  const user = callerId(body, TARGET);
  if (user) out.metadata = { user_id: user };
  return out;
}
