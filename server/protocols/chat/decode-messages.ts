// chat-completions `messages` -> messages-protocol `system` + `messages`.
// Leading system/developer messages become the system prompt; tool results join the next user
// turn as tool_result blocks (the messages protocol puts them there); thinking travels back with
// the signature it was issued with (see thinking_blocks in server/README.md).
import type { ChatMessage, Json } from '../../../core/protocol/chat-types.ts';
import type { ContentBlock, MessageParam, TextBlock } from '../../../core/protocol/messages-types.ts';
import { documentBlockFromChat, imageBlockFromChat } from './images.ts';
import { asRecord, asString, isRecord, isUnset, parseJsonText } from '../shared/json-values.ts';
import { refuse } from '../shared/translation-error.ts';

type Block = ContentBlock | ({ type: string } & Json);

const ROLE_FIELDS: Record<string, string[]> = {
  system: ['role', 'content'],
  developer: ['role', 'content'],
  user: ['role', 'content'],
  tool: ['role', 'content', 'tool_call_id'],
  assistant: ['role', 'content', 'tool_calls', 'refusal', 'reasoning_content', 'thinking_blocks'],
};

function checkFields(message: Json, field: string): void {
  const allowed = ROLE_FIELDS[String(message.role)] ?? [];
  for (const [key, value] of Object.entries(message)) {
    if (allowed.includes(key) || isUnset(value)) continue;
    const why = key === 'name' ? 'the messages protocol has no participant names.' : key === 'function_call' ? 'legacy function calls are not translated; use tool_calls.' : 'the messages protocol has no such message field.';
    refuse(`${field}.${key}`, why);
  }
}

function textBlock(part: Json, field: string): TextBlock {
  for (const key of Object.keys(part)) {
    if (!['type', 'text', 'cache_control'].includes(key)) refuse(`${field}.${key}`, 'the messages protocol has no such text field.');
  }
  const block: TextBlock = { type: 'text', text: String(part.text ?? '') };
  if (isRecord(part.cache_control)) block.cache_control = part.cache_control;
  return block;
}

function textBlocks(content: unknown, field: string): TextBlock[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  if (!Array.isArray(content)) refuse(field, 'must be a string or a list of text parts.');
  return content.map((part, j) => {
    const p = asRecord(part);
    if (p.type !== 'text') refuse(`${field}[${j}].type`, `only text parts are allowed here, not "${String(p.type)}".`);
    return textBlock(p, `${field}[${j}]`);
  });
}

function userBlocks(content: unknown, field: string): Block[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) refuse(field, 'must be a string or a list of content parts.');
  return content.map((part, j) => {
    const p = asRecord(part);
    const at = `${field}[${j}]`;
    switch (p.type) {
      case 'text':
        return textBlock(p, at);
      case 'image_url':
        return imageBlockFromChat(p, at);
      case 'file':
        return documentBlockFromChat(p, at);
      default:
        refuse(`${at}.type`, `"${String(p.type)}" parts (audio and the like) have no messages-protocol block.`);
    }
  });
}

function thinkingBlocks(message: Json, field: string): Block[] {
  const reasoning = asString(message.reasoning_content);
  if (isUnset(message.thinking_blocks)) {
    if (reasoning) {
      refuse(`${field}.reasoning_content`, 'the messages protocol takes earlier thinking back only with its signature; send the thinking_blocks the gateway returned with it, or leave the reasoning out.');
    }
    return [];
  }
  if (!Array.isArray(message.thinking_blocks)) refuse(`${field}.thinking_blocks`, 'must be a list of thinking blocks.');
  const withoutText = message.thinking_blocks.filter((b) => asRecord(b).type === 'thinking' && typeof asRecord(b).thinking !== 'string').length;
  return message.thinking_blocks.map((entry, k) => {
    const b = asRecord(entry);
    const at = `${field}.thinking_blocks[${k}]`;
    if (b.type === 'redacted_thinking') return { type: 'redacted_thinking', data: String(b.data ?? '') };
    if (b.type !== 'thinking') refuse(`${at}.type`, 'must be thinking or redacted_thinking.');
    // In streams the text arrives as reasoning_content and the block carries only its signature.
    let text = asString(b.thinking);
    if (text === undefined) {
      if (withoutText !== 1 || reasoning === undefined) refuse(`${at}.thinking`, 'the thinking text is missing.');
      text = reasoning;
    }
    return { type: 'thinking', thinking: text, signature: String(b.signature ?? '') };
  });
}

function assistantBlocks(message: Json, field: string): Block[] {
  const blocks: Block[] = thinkingBlocks(message, field);
  const content = message.content;
  if (typeof content === 'string') {
    if (content !== '') blocks.push({ type: 'text', text: content });
  } else if (Array.isArray(content)) {
    content.forEach((part, j) => {
      const p = asRecord(part);
      if (p.type === 'refusal') blocks.push({ type: 'text', text: String(p.refusal ?? '') });
      else if (p.type === 'text') blocks.push(textBlock(p, `${field}.content[${j}]`));
      else refuse(`${field}.content[${j}].type`, `assistant "${String(p.type)}" parts have no messages-protocol block.`);
    });
  } else if (!isUnset(content)) refuse(`${field}.content`, 'must be a string or a list of text parts.');
  if (typeof message.refusal === 'string' && message.refusal !== '') blocks.push({ type: 'text', text: message.refusal });
  const calls = message.tool_calls;
  if (!isUnset(calls)) {
    if (!Array.isArray(calls)) refuse(`${field}.tool_calls`, 'must be a list.');
    calls.forEach((call, k) => {
      const c = asRecord(call);
      const at = `${field}.tool_calls[${k}]`;
      if (c.type !== undefined && c.type !== 'function') refuse(`${at}.type`, `"${String(c.type)}" tool calls have no messages-protocol block.`);
      const fn = asRecord(c.function);
      const args = asString(fn.arguments) ?? '';
      const input = args.trim() === '' ? {} : parseJsonText(args);
      if (!isRecord(input)) refuse(`${at}.function.arguments`, 'must be a JSON object; the messages protocol stores tool input as an object.');
      blocks.push({ type: 'tool_use', id: String(c.id ?? ''), name: String(fn.name ?? ''), input });
    });
  }
  return blocks;
}

function toolResult(message: Json, field: string): Block {
  const id = asString(message.tool_call_id);
  if (!id) refuse(`${field}.tool_call_id`, 'a tool message must name the call it answers.');
  const content = message.content;
  if (typeof content === 'string') return { type: 'tool_result', tool_use_id: id, content };
  return { type: 'tool_result', tool_use_id: id, content: textBlocks(content, `${field}.content`) };
}

export function messagesFromChatMessages(list: ChatMessage[]): { system?: string | TextBlock[]; messages: MessageParam[] } {
  const system: TextBlock[] = [];
  const out: MessageParam[] = [];
  let systemString: string | undefined;
  let start = 0;
  for (; start < list.length; start += 1) {
    const message = asRecord(list[start]);
    if (message.role !== 'system' && message.role !== 'developer') break;
    checkFields(message, `messages[${start}]`);
    if (start === 0 && list.length > 0 && typeof message.content === 'string') systemString = message.content;
    system.push(...textBlocks(message.content, `messages[${start}].content`));
  }
  const onlyOneString = start === 1 && systemString !== undefined;

  const append = (role: 'user' | 'assistant', blocks: Block[], original?: string) => {
    const last = out.at(-1);
    if (last && last.role === role) {
      const previous = typeof last.content === 'string' ? [{ type: 'text', text: last.content } as Block] : last.content;
      last.content = [...previous, ...blocks];
      return;
    }
    out.push({ role, content: original ?? blocks });
  };

  for (let i = start; i < list.length; i += 1) {
    const message = asRecord(list[i]);
    const field = `messages[${i}]`;
    switch (message.role) {
      case 'system':
      case 'developer':
        refuse(`${field}.role`, 'the messages protocol takes one system prompt before the conversation; move system messages to the start.');
      case 'user':
        checkFields(message, field);
        append('user', userBlocks(message.content, `${field}.content`), typeof message.content === 'string' ? message.content : undefined);
        break;
      case 'tool':
        checkFields(message, field);
        append('user', [toolResult(message, field)]);
        break;
      case 'assistant':
        checkFields(message, field);
        append('assistant', assistantBlocks(message, field));
        break;
      default:
        refuse(`${field}.role`, `"${String(message.role)}" messages have no messages-protocol equivalent.`);
    }
  }
  if (system.length === 0) return { messages: out };
  return { system: onlyOneString ? systemString : system, messages: out };
}
