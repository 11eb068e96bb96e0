// How much the model should think. chat-completions has one knob, reasoning_effort; the messages
// protocol has output_config.effort (same scale) and a thinking configuration with an optional
// token budget. The mapping (documented in server/README.md):
//   reasoning_effort none            <-> thinking {type: disabled}
//   reasoning_effort low..max        <-> output_config.effort low..max
//   thinking {enabled, budget_tokens} -> reasoning_effort by budget: < 4096 low, < 16384 medium, else high
//   thinking {adaptive}               -> the upstream's default (the model decides), unless an effort is given
import type { Json } from '../../../core/protocol/chat-types.ts';
import type { ThinkingConfig } from '../../../core/protocol/messages-types.ts';
import { asNumber, asRecord, isRecord, isUnset } from '../shared/json-values.ts';
import { refuse } from '../shared/translation-error.ts';

const SHARED_EFFORTS = new Set(['low', 'medium', 'high', 'xhigh', 'max']);

export function effortForBudget(budget: number): 'low' | 'medium' | 'high' {
  if (budget < 4096) return 'low';
  if (budget < 16384) return 'medium';
  return 'high';
}

/** chat request -> messages `thinking` and `output_config.effort`. `thinking` on a chat request is a gateway extension passed as is. */
export function messagesReasoningFromChat(body: Json): { thinking?: ThinkingConfig; effort?: string } {
  const effort = body.reasoning_effort;
  let thinking: ThinkingConfig | undefined;
  if (!isUnset(body.thinking)) {
    if (!isRecord(body.thinking) || typeof body.thinking.type !== 'string') refuse('thinking', 'must be a messages-protocol thinking object such as {"type": "enabled", "budget_tokens": 2048}.');
    thinking = body.thinking as ThinkingConfig;
  }
  if (isUnset(effort)) return { thinking };
  if (effort === 'none') {
    if (thinking && thinking.type !== 'disabled') refuse('reasoning_effort', '"none" contradicts the thinking field.');
    return { thinking: { type: 'disabled' } };
  }
  if (typeof effort === 'string' && SHARED_EFFORTS.has(effort)) return { thinking, effort };
  refuse('reasoning_effort', `"${String(effort)}" has no messages-protocol equivalent; use none, low, medium, high, xhigh or max.`);
}

/** messages request -> chat `reasoning_effort`. */
export function chatReasoningFromMessages(thinkingValue: unknown, outputConfig: Json): string | undefined {
  const effort = outputConfig.effort;
  if (!isUnset(effort) && (typeof effort !== 'string' || !SHARED_EFFORTS.has(effort))) {
    refuse('output_config.effort', `"${String(effort)}" is not an effort chat-completions knows.`);
  }
  if (isUnset(thinkingValue)) return (effort as string | undefined) ?? undefined;
  const thinking = asRecord(thinkingValue);
  if (thinking.display === 'omitted') refuse('thinking.display', 'chat-completions cannot return a signature without the thinking text ("omitted").');
  switch (thinking.type) {
    case 'disabled':
      if (!isUnset(effort)) refuse('output_config.effort', 'chat-completions has one reasoning knob; an effort together with disabled thinking cannot be expressed.');
      return 'none';
    case 'enabled': {
      if (!isUnset(effort)) return effort as string;
      const budget = asNumber(thinking.budget_tokens);
      if (budget === undefined) refuse('thinking.budget_tokens', 'is required when thinking is enabled.');
      return effortForBudget(budget);
    }
    case 'adaptive':
      return (effort as string | undefined) ?? undefined;
    default:
      refuse('thinking.type', `"${String(thinking.type)}" has no chat-completions equivalent.`);
  }
}
