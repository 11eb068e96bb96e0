// chat-completions answer (JSON) -> messages-protocol answer (a chat upstream, a messages client).
import type { Json } from '../../../core/protocol/chat-types.ts';
import type { MessagesResponse, ResponseBlock } from '../../../core/protocol/messages-types.ts';
import { asNumber, asRecord, asString, isRecord, parseJsonText } from '../shared/json-values.ts';
import { stopReasonFor } from './stop-reasons.ts';
import { unrepresentable } from '../shared/translation-error.ts';
import { messagesUsageFromChat } from './usage.ts';

/** Reasoning text under either name chat-completions servers use. */
export function reasoningText(message: Json): string | undefined {
  return asString(message.reasoning_content) ?? asString(message.reasoning);
}

function thinkingBlocks(message: Json): ResponseBlock[] {
  const reasoning = reasoningText(message);
  if (Array.isArray(message.thinking_blocks) && message.thinking_blocks.length > 0) {
    return message.thinking_blocks.map((entry) => {
      const b = asRecord(entry);
      if (b.type === 'redacted_thinking') return { type: 'redacted_thinking', data: String(b.data ?? '') };
      return { type: 'thinking', thinking: asString(b.thinking) ?? reasoning ?? '', signature: String(b.signature ?? '') };
    });
  }
  // A chat upstream issues no signature; the block carries an empty one.
  return reasoning ? [{ type: 'thinking', thinking: reasoning, signature: '' }] : [];
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => String(asRecord(p).text ?? '')).join('');
  return '';
}

export function decodeChatAnswer(body: Json): MessagesResponse & { created?: number } {
  const choices = Array.isArray(body.choices) ? body.choices : [];
  if (choices.length === 0) unrepresentable('choices', 'is empty.');
  const choice = asRecord(choices[0]);
  const message = asRecord(choice.message);
  const blocks: ResponseBlock[] = thinkingBlocks(message);
  const text = contentText(message.content);
  if (text) blocks.push({ type: 'text', text });
  const refusal = asString(message.refusal);
  if (refusal) blocks.push({ type: 'text', text: refusal });
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
  calls.forEach((call, k) => {
    const c = asRecord(call);
    const fn = asRecord(c.function);
    const args = asString(fn.arguments) ?? '';
    const input = args.trim() === '' ? {} : parseJsonText(args);
    if (!isRecord(input)) unrepresentable(`choices[0].message.tool_calls[${k}].function.arguments`, 'is not a JSON object, and messages-protocol tool input must be one.');
    blocks.push({ type: 'tool_use', id: String(c.id ?? `call_${k}`), name: String(fn.name ?? ''), input });
  });
  const stop = refusal ? { stop_reason: 'refusal' as const, stop_sequence: null } : stopReasonFor(asString(choice.finish_reason), choice.stop_reason);
  return {
    id: asString(body.id) ?? '',
    type: 'message',
    role: 'assistant',
    model: asString(body.model) ?? '',
    content: blocks,
    ...stop,
    usage: messagesUsageFromChat(asRecord(body.usage)),
    ...(asNumber(body.created) !== undefined ? { created: asNumber(body.created) } : {}),
  };
}
