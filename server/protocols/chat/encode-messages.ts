// messages-protocol `system` + `messages` -> chat-completions `messages`.
// tool_result blocks become tool messages placed before the rest of their user turn; thinking in
// earlier assistant turns travels as reasoning_content (its signature only means something to
// the provider that issued it); cache_control is a caching hint chat-completions providers apply
// on their own, so it is accepted and not forwarded.
import type { ChatContentPart, ChatMessage, ChatToolCall, Json } from '../../../core/protocol/chat-types.ts';
import { chatPartFromDocumentBlock, chatPartFromImageBlock } from './images.ts';
import { asRecord, isUnset } from '../shared/json-values.ts';
import { refuse } from '../shared/translation-error.ts';
import { originOf } from '../shared/origins.ts';

const BLOCK_FIELDS: Record<string, string[]> = {
  text: ['type', 'text', 'cache_control', 'citations'],
  image: ['type', 'source', 'cache_control'],
  document: ['type', 'source', 'title', 'context', 'citations', 'cache_control'],
  tool_use: ['type', 'id', 'name', 'input', 'cache_control', 'caller'],
  tool_result: ['type', 'tool_use_id', 'content', 'is_error', 'cache_control'],
  thinking: ['type', 'thinking', 'signature'],
};

function checkBlock(block: Json, field: string): void {
  const allowed = BLOCK_FIELDS[String(block.type)];
  if (!allowed) refuse(`${field}.type`, `"${String(block.type)}" blocks have no chat-completions equivalent.`);
  for (const [key, value] of Object.entries(block)) {
    if (!allowed.includes(key) && !isUnset(value)) refuse(`${field}.${key}`, 'chat-completions has no such field.');
  }
  if (block.type === 'text' && Array.isArray(block.citations) && block.citations.length > 0) refuse(`${field}.citations`, 'chat-completions has no citations.');
  const caller = asRecord(block.caller);
  if (block.type === 'tool_use' && !isUnset(block.caller) && caller.type !== 'direct') refuse(`${field}.caller`, 'only tools called directly by the model exist in chat-completions.');
}

function textPart(block: Json): ChatContentPart {
  return { type: 'text', text: String(block.text ?? '') };
}

/** The top-level `system`, or a `system` entry in the middle of `messages` (its `content`). */
function systemMessage(system: unknown, field = 'system'): ChatMessage[] {
  if (isUnset(system)) return [];
  if (typeof system === 'string') return system === '' ? [] : [{ role: 'system', content: system }];
  if (!Array.isArray(system)) refuse(field, 'must be a string or a list of text blocks.');
  const parts = system.map((block, i) => {
    const b = asRecord(block);
    if (b.type !== 'text') refuse(`${field}[${i}].type`, 'system instructions take text blocks only.');
    checkBlock(b, `${field}[${i}]`);
    return textPart(b);
  });
  if (parts.length === 0) return [];
  return [{ role: 'system', content: parts.length === 1 ? (parts[0] as { text: string }).text : parts }];
}

function toolMessage(block: Json, field: string): ChatMessage {
  const error = block.is_error === true;
  let content: string | ChatContentPart[];
  if (isUnset(block.content)) content = '';
  else if (typeof block.content === 'string') content = block.content;
  else if (Array.isArray(block.content)) {
    content = block.content.map((item, k) => {
      const b = asRecord(item);
      if (b.type !== 'text') refuse(`${originOf(b, `${field}.content[${k}]`)}.type`, `chat-completions tool messages carry text only, not "${String(b.type)}".`);
      checkBlock(b, `${field}.content[${k}]`);
      return textPart(b);
    });
  } else refuse(`${field}.content`, 'must be a string or a list of blocks.');
  // chat-completions has no error flag on a tool result: the model reads it in the text instead.
  if (error) {
    if (typeof content === 'string') content = content ? `Error: ${content}` : 'Error';
    else content = content.length ? [{ type: 'text', text: `Error: ${(content[0] as { text: string }).text}` }, ...content.slice(1)] : 'Error';
  }
  return { role: 'tool', tool_call_id: String(block.tool_use_id ?? ''), content };
}

function userMessages(content: unknown, field: string): ChatMessage[] {
  if (typeof content === 'string') return [{ role: 'user', content }];
  if (!Array.isArray(content)) refuse(field, 'must be a string or a list of blocks.');
  const tools: ChatMessage[] = [];
  const parts: ChatContentPart[] = [];
  content.forEach((item, j) => {
    const block = asRecord(item);
    const at = `${field}[${j}]`;
    checkBlock(block, at);
    switch (block.type) {
      case 'tool_result':
        tools.push(toolMessage(block, at));
        break;
      case 'text':
        parts.push(textPart(block));
        break;
      case 'image':
        parts.push(chatPartFromImageBlock(block, at));
        break;
      case 'document':
        parts.push(chatPartFromDocumentBlock(block, at));
        break;
      default:
        refuse(`${at}.type`, `"${String(block.type)}" blocks cannot appear in a chat-completions user message.`);
    }
  });
  return parts.length ? [...tools, { role: 'user', content: parts }] : tools;
}

function assistantMessage(content: unknown, field: string): ChatMessage {
  if (typeof content === 'string') return { role: 'assistant', content };
  if (!Array.isArray(content)) refuse(field, 'must be a string or a list of blocks.');
  const texts: ChatContentPart[] = [];
  const calls: ChatToolCall[] = [];
  let reasoning: string | undefined;
  content.forEach((item, j) => {
    const block = asRecord(item);
    const at = `${field}[${j}]`;
    checkBlock(block, at);
    switch (block.type) {
      case 'text':
        texts.push(textPart(block));
        break;
      case 'thinking':
        reasoning = (reasoning ?? '') + String(block.thinking ?? '');
        break;
      case 'tool_use':
        calls.push({ id: String(block.id ?? ''), type: 'function', function: { name: String(block.name ?? ''), arguments: JSON.stringify(block.input ?? {}) } });
        break;
      default:
        refuse(`${at}.type`, `"${String(block.type)}" blocks cannot appear in a chat-completions assistant message.`);
    }
  });
  const message: ChatMessage = { role: 'assistant', content: texts.length === 0 ? null : texts.length === 1 ? (texts[0] as { text: string }).text : texts };
  if (calls.length) message.tool_calls = calls;
  if (reasoning !== undefined) message.reasoning_content = reasoning;
  return message;
}

export function chatMessagesFromMessages(system: unknown, messages: unknown): ChatMessage[] {
  if (!Array.isArray(messages)) refuse('messages', 'must be a list.');
  const out = systemMessage(system);
  messages.forEach((item, i) => {
    const message = asRecord(item);
    const field = `messages[${i}]`;
    for (const [key, value] of Object.entries(message)) {
      if (key !== 'role' && key !== 'content' && !isUnset(value)) refuse(`${field}.${key}`, 'chat-completions has no such message field.');
    }
    if (message.role === 'user') out.push(...userMessages(message.content, `${field}.content`));
    else if (message.role === 'assistant') out.push(assistantMessage(message.content, `${field}.content`));
    // Instructions added mid-conversation stay where they are: chat-completions takes system messages anywhere.
    else if (message.role === 'system') out.push(...systemMessage(message.content, `${field}.content`));
    else refuse(`${field}.role`, `"${String(message.role)}" has no chat-completions equivalent; use user, assistant or system.`);
  });
  return out;
}
