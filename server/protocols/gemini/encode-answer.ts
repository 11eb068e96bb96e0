// canonical answer -> Gemini generateContent answer (an upstream of another protocol, a Gemini client).
import type { Json } from '../../../core/protocol/chat-types.ts';
import type { CanonicalAnswer } from '../canonical/conversation.ts';
import { asRecord } from '../shared/json-values.ts';
import { unrepresentable } from '../shared/translation-error.ts';
import { geminiFinishReason } from './finish-reasons.ts';
import { isThinkingBlock, packThinking, type ThinkingBlock } from './packed-thinking.ts';
import { geminiUsageFromCanonical } from './usage.ts';

/** One canonical block as a Gemini part (undefined for what a Gemini client has no use for). */
export function partFromBlock(block: Json, field: string): Json | undefined {
  switch (block.type) {
    case 'text':
      return { text: String(block.text ?? '') };
    case 'thinking':
      // Gemini clients send parts back with the signature they came with, so an upstream's thinking
      // signature (a messages upstream refuses thinking without it) rides on the thought part.
      return { text: String(block.thinking ?? ''), thought: true, ...(typeof block.signature === 'string' && block.signature !== '' ? { thoughtSignature: block.signature } : {}) };
    case 'redacted_thinking':
      return undefined;
    case 'tool_use':
      return { functionCall: { id: String(block.id ?? ''), name: String(block.name ?? ''), args: asRecord(block.input) } };
    default:
      unrepresentable(`${field}.type`, `"${String(block.type)}" has no Gemini equivalent.`);
  }
}

export function geminiCandidate(parts: Json[], finishReason?: string): Json {
  const candidate: Json = { content: { role: 'model', parts }, index: 0 };
  if (finishReason) candidate.finishReason = finishReason;
  return candidate;
}

export function encodeGeminiAnswer(answer: CanonicalAnswer): Json {
  const parts: Json[] = [];
  let thinking: ThinkingBlock[] = [];
  answer.content.forEach((entry, i) => {
    const block = entry as unknown as Json;
    const part = partFromBlock(block, `content[${i}]`);
    if (isThinkingBlock(block)) thinking.push(block);
    else if (block.type === 'tool_use' && part) {
      const packed = packThinking(thinking);
      if (packed) part.thoughtSignature = packed;
      thinking = [];
    }
    if (part) parts.push(part);
  });
  return {
    candidates: [geminiCandidate(parts, geminiFinishReason(answer.stop_reason))],
    usageMetadata: geminiUsageFromCanonical(answer.usage),
    modelVersion: answer.model,
    responseId: answer.id,
  };
}
