// Gemini generateContent answer -> canonical answer (a Gemini upstream, a client of another protocol).
import type { Json } from '../../../core/protocol/chat-types.ts';
import type { MessagesUsage, ResponseBlock } from '../../../core/protocol/messages-types.ts';
import type { CanonicalAnswer } from '../canonical/conversation.ts';
import { asRecord, asString } from '../shared/json-values.ts';
import { stopReasonFromGemini } from './finish-reasons.ts';
import { blockFromPart, candidateFinish, candidateParts } from './parts-to-blocks.ts';
import { canonicalUsageFromGemini } from './usage.ts';

export function decodeGeminiAnswer(body: Json): CanonicalAnswer {
  const blocks: ResponseBlock[] = [];
  candidateParts(body).forEach((part, i) => {
    const block = blockFromPart(part, `candidates[0].content.parts[${i}]`, i, asString(body.responseId));
    if (!block) return;
    const last = blocks.at(-1);
    // A stream's pieces of one text arrive as several parts; they are one block.
    if (block.type === 'text' && last?.type === 'text') last.text += block.text;
    else blocks.push(block);
  });
  const blocked = asString(asRecord(body.promptFeedback).blockReason);
  const finish = blocked ? 'SAFETY' : candidateFinish(body);
  return {
    id: asString(body.responseId) ?? '',
    type: 'message',
    role: 'assistant',
    model: asString(body.modelVersion) ?? '',
    content: blocks,
    stop_reason: stopReasonFromGemini(finish, blocks.some((b) => b.type === 'tool_use')),
    stop_sequence: null,
    usage: canonicalUsageFromGemini(body.usageMetadata) as MessagesUsage,
  };
}
