// Reasoning between the Responses API and the other protocols. A reasoning item's summary carries
// the upstream's reasoning text (what Responses clients show); its `encrypted_content` carries what
// the upstream needs to take the reasoning back: a messages upstream's thinking signature, or a
// redacted thinking block's data (marked with a prefix, since both are opaque strings).
// The mapping of effort:
//   reasoning.effort none          <-> chat reasoning_effort none / messages thinking {type: disabled}
//   reasoning.effort minimal..xhigh -> the same word (minimal only for a chat upstream)
import type { Json } from '../../../core/protocol/chat-types.ts';
import type { ThinkingConfig } from '../../../core/protocol/messages-types.ts';
import { asRecord, asString, isUnset } from '../shared/json-values.ts';
import { refuse } from '../shared/translation-error.ts';

const REDACTED_PREFIX = 'redacted_thinking:';

export function encryptedFromRedacted(data: string): string {
  return REDACTED_PREFIX + data;
}

export type ReturnedThinking = { type: 'thinking'; thinking: string; signature: string } | { type: 'redacted_thinking'; data: string };

/** A reasoning item sent back, as the thinking block it came from (undefined when it carries no signature). */
export function thinkingFromItem(text: string, encrypted: string | undefined): ReturnedThinking | undefined {
  if (encrypted === undefined) return undefined;
  if (encrypted.startsWith(REDACTED_PREFIX)) return { type: 'redacted_thinking', data: encrypted.slice(REDACTED_PREFIX.length) };
  return { type: 'thinking', thinking: text, signature: encrypted };
}

const SUMMARIES = new Set(['auto', 'concise', 'detailed']);

/** Checks `reasoning` and returns its effort (undefined when unset). Summaries are what the gateway returns anyway. */
export function reasoningEffort(body: Json, efforts: ReadonlySet<string>, target: string): string | undefined {
  if (isUnset(body.reasoning)) return undefined;
  const reasoning = asRecord(body.reasoning);
  for (const [key, value] of Object.entries(reasoning)) {
    if (isUnset(value)) continue;
    if (key === 'summary' || key === 'generate_summary') {
      if (!SUMMARIES.has(String(value))) refuse(`reasoning.${key}`, `"${String(value)}" is not a summary setting; use auto, concise or detailed.`);
      continue;
    }
    if (key !== 'effort') refuse(`reasoning.${key}`, `${target} has no such reasoning setting.`);
  }
  const effort = asString(reasoning.effort);
  if (effort === undefined) return undefined;
  if (!efforts.has(effort)) refuse('reasoning.effort', `"${effort}" has no ${target} equivalent; use ${[...efforts].join(', ')}.`);
  return effort;
}

/** messages-protocol thinking and effort from a Responses effort. */
export function messagesThinkingFromEffort(effort: string | undefined): { thinking?: ThinkingConfig; effort?: string } {
  if (effort === undefined) return {};
  if (effort === 'none') return { thinking: { type: 'disabled' } };
  return { effort };
}
