import type { BuiltinExtension } from './types.ts';
import { isObject, type JsonObject } from '../util/json-value.ts';
import { sha256Hex } from '../util/sha256.ts';
import { blocksOf, isTextBlock, messagesOf, systemBlocksOf } from './shared/message-content.ts';

const BILLING_MARKER = 'x-anthropic-billing-header:';
// Claude Code's public fingerprint salt; the fingerprint is the first 3 hex of
// sha256(salt + message chars at 4, 7, 20 + version).
const FINGERPRINT_SALT = '59cf53e54c78';
const VERSION_PATTERN = /cc_version=(\d+\.\d+\.\d+)\.([0-9a-f]{3})(?=[;\s]|$)/;

export function claudeCodeFingerprint(text: string, version: string): string {
  const chars = [4, 7, 20].map((i) => (i < text.length ? text[i] : '0')).join('');
  return sha256Hex(`${FINGERPRINT_SALT}${chars}${version}`).slice(0, 3);
}

function textOfBlockOrString(message: JsonObject | undefined): string | null {
  if (!message) return null;
  if (typeof message.content === 'string') return message.content;
  const first = blocksOf(message)[0];
  return first && isTextBlock(first) ? first.text : null;
}

/** The first user text the person actually typed, skipping injected reminders. */
function firstRealUserText(body: JsonObject): string | null {
  for (const message of messagesOf(body)) {
    if (message.role !== 'user') continue;
    if (typeof message.content === 'string') {
      if (!message.content.startsWith('<system-reminder>')) return message.content;
      continue;
    }
    for (const block of blocksOf(message)) {
      if (isTextBlock(block) && !block.text.startsWith('<system-reminder>')) return block.text;
    }
  }
  return null;
}

/**
 * The billing line in the system prompt carries a fingerprint of the first message text. On a
 * resumed session that first text is a reminder that differs from the fresh session's, so the
 * system prompt (and the whole cache prefix behind it) changes. Recomputing it from the real user
 * text makes it the same both ways. A suffix that is not a Claude Code fingerprint (e.g. an editor
 * build hash) is left alone: we cannot know what it means.
 */
export const fingerprintStrip: BuiltinExtension = {
  name: 'fingerprint-strip',
  order: 100,
  create() {
    return {
      onRequest(ctx) {
        if (!isObject(ctx.body)) return;
        const block = systemBlocksOf(ctx.body).find((b) => isTextBlock(b) && b.text.includes(BILLING_MARKER));
        if (!block || !isTextBlock(block)) return;
        const match = VERSION_PATTERN.exec(block.text);
        if (!match) return;
        const [whole, version, suffix] = match;
        const realText = firstRealUserText(ctx.body);
        if (realText === null) return;
        const wanted = claudeCodeFingerprint(realText, version);
        if (suffix === wanted) return;
        const firstText = textOfBlockOrString(messagesOf(ctx.body)[0]);
        const verifiable = firstText !== null && claudeCodeFingerprint(firstText, version) === suffix;
        if (!verifiable) return;
        block.text = block.text.replace(whole, `cc_version=${version}.${wanted}`);
        ctx.markChanged();
      },
    };
  },
};
