// messages-protocol answer (JSON) -> chat-completions answer (a messages upstream, a chat client).
// Thinking is returned as reasoning_content, and as thinking_blocks with its signature so the
// client can send it back for the next turn.
import type { ChatCompletion, ChatResponseMessage, ChatThinkingBlock, ChatToolCall, Json } from '../../../core/protocol/chat-types.ts';
import { asRecord, asString } from '../shared/json-values.ts';
import { finishReasonFor } from './stop-reasons.ts';
import { unrepresentable } from '../shared/translation-error.ts';
import { chatUsageFromMessages } from './usage.ts';

export interface ResponseContext {
  /** Unix seconds for chat-completions `created` (the messages protocol has no timestamp). */
  created: number;
}

export function encodeChatAnswer(body: Json, context: ResponseContext): ChatCompletion {
  const texts: string[] = [];
  const calls: ChatToolCall[] = [];
  const thinking: ChatThinkingBlock[] = [];
  let reasoning: string | undefined;
  const content = Array.isArray(body.content) ? body.content : [];
  content.forEach((item, i) => {
    const block = asRecord(item);
    switch (block.type) {
      case 'text':
        texts.push(String(block.text ?? ''));
        break;
      case 'thinking':
        reasoning = (reasoning ?? '') + String(block.thinking ?? '');
        thinking.push({ type: 'thinking', thinking: String(block.thinking ?? ''), signature: String(block.signature ?? '') });
        break;
      case 'redacted_thinking':
        thinking.push({ type: 'redacted_thinking', data: String(block.data ?? '') });
        break;
      case 'tool_use':
        calls.push({ id: String(block.id ?? ''), type: 'function', function: { name: String(block.name ?? ''), arguments: JSON.stringify(block.input ?? {}) } });
        break;
      default:
        unrepresentable(`content[${i}].type`, `"${String(block.type)}" has no chat-completions equivalent.`);
    }
  });
  const message: ChatResponseMessage = { role: 'assistant', content: texts.length ? texts.join('') : calls.length ? null : '', refusal: null };
  if (calls.length) message.tool_calls = calls;
  if (reasoning !== undefined) message.reasoning_content = reasoning;
  if (thinking.length) message.thinking_blocks = thinking;
  return {
    id: asString(body.id) ?? '',
    object: 'chat.completion',
    created: context.created,
    model: asString(body.model) ?? '',
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReasonFor(asString(body.stop_reason)) ?? 'stop' }],
    usage: chatUsageFromMessages(asRecord(body.usage)),
  };
}
