// Converse answer -> canonical answer: text, tool calls and reasoning (with its signature) blocks.
import type { Json } from '../../../core/protocol/chat-types.ts';
import type { MessagesUsage, ResponseBlock } from '../../../core/protocol/messages-types.ts';
import type { CanonicalAnswer } from '../canonical/conversation.ts';
import { asRecord, asString } from '../shared/json-values.ts';
import { unrepresentable } from '../shared/translation-error.ts';
import { stopReasonFromConverse } from './stop-reasons.ts';
import { canonicalUsageFromConverse } from './usage.ts';

export function decodeConverseAnswer(body: Json, model = ''): CanonicalAnswer {
  const content = asRecord(asRecord(asRecord(body.output).message)).content;
  const blocks: ResponseBlock[] = (Array.isArray(content) ? content : []).map((value, i) => {
    const block = asRecord(value);
    if (typeof block.text === 'string') return { type: 'text', text: block.text } as ResponseBlock;
    if (block.toolUse) {
      const call = asRecord(block.toolUse);
      return { type: 'tool_use', id: String(call.toolUseId ?? ''), name: String(call.name ?? ''), input: asRecord(call.input) } as ResponseBlock;
    }
    const reasoning = asRecord(block.reasoningContent);
    if (reasoning.reasoningText) {
      const text = asRecord(reasoning.reasoningText);
      return { type: 'thinking', thinking: String(text.text ?? ''), signature: asString(text.signature) ?? '' } as ResponseBlock;
    }
    if (typeof reasoning.redactedContent === 'string') return { type: 'redacted_thinking', data: reasoning.redactedContent } as ResponseBlock;
    unrepresentable(`output.message.content[${i}]`, `a Converse block of kind ${Object.keys(block).join(', ')} has no equivalent here.`);
  });
  return {
    id: asString(asRecord(body.ResponseMetadata).RequestId) ?? '',
    type: 'message',
    role: 'assistant',
    model,
    content: blocks,
    stop_reason: stopReasonFromConverse(body.stopReason),
    stop_sequence: null,
    usage: canonicalUsageFromConverse(body.usage) as MessagesUsage,
  } as CanonicalAnswer;
}
