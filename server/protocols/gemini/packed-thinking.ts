// Thinking that must come back with a tool call, carried by the call's thoughtSignature. A messages
// upstream with thinking on refuses a tool-use turn sent back without the thinking blocks it began
// with, and Gemini clients drop thought parts from their history (the Gemini CLI keeps no content
// that starts with a thought) while they keep a function call's thoughtSignature, which Gemini
// requires. So an answer for a Gemini client packs the turn's signed thinking into the first call's
// signature, and the decoder of Gemini requests unpacks it into thinking blocks again. A Gemini
// model never sees a pack: it is only made for answers of upstreams of other protocols.
import type { Json } from '../../../core/protocol/chat-types.ts';
import { asString, isRecord, parseJsonText } from '../shared/json-values.ts';

const PREFIX = 'gwctl-thinking:1:';

/** Signed thinking and redacted thinking, as canonical blocks. */
export type ThinkingBlock = { type: 'thinking'; thinking: string; signature: string } | { type: 'redacted_thinking'; data: string };

/** The blocks worth carrying (signed or redacted), or undefined when none is. */
export function packThinking(blocks: readonly ThinkingBlock[]): string | undefined {
  const kept = blocks.filter((b) => (b.type === 'thinking' ? b.signature !== '' : b.data !== ''));
  if (kept.length === 0) return undefined;
  return Buffer.from(PREFIX + JSON.stringify(kept)).toString('base64');
}

/** The blocks a signature packs, or undefined for any other signature (Gemini's own). */
export function unpackThinking(signature: string | undefined): ThinkingBlock[] | undefined {
  if (!signature || !signature.startsWith('Z3djdGwtdGhpbmtpbmc6')) return undefined; // base64 of the prefix's start
  const text = Buffer.from(signature, 'base64').toString('utf8');
  if (!text.startsWith(PREFIX)) return undefined;
  const blocks = parseJsonText(text.slice(PREFIX.length));
  if (!Array.isArray(blocks)) return undefined;
  const out: ThinkingBlock[] = [];
  for (const entry of blocks) {
    if (!isRecord(entry)) return undefined;
    if (entry.type === 'thinking') out.push({ type: 'thinking', thinking: asString(entry.thinking) ?? '', signature: asString(entry.signature) ?? '' });
    else if (entry.type === 'redacted_thinking') out.push({ type: 'redacted_thinking', data: asString(entry.data) ?? '' });
    else return undefined;
  }
  return out;
}

export function isThinkingBlock(block: Json): block is Json & ThinkingBlock {
  return block.type === 'thinking' || block.type === 'redacted_thinking';
}
