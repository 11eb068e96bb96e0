import type { BuiltinExtension } from './types.ts';
import { isObject } from '../util/json-value.ts';
import { blocksOf, isTextBlock, messagesOf, systemBlocksOf } from './shared/message-content.ts';

const SESSION_KNOWLEDGE = /<session_knowledge\b[^>]*>[\s\S]*?<\/session_knowledge>\n?/g;
const REMINDER_CLOSE = /\s+<\/system-reminder>/g;
const SESSION_ID_TAG = /<session-id>[\s\S]*?<\/session-id>\n?/g;
const LAST_ACTIVE_LINE = /^Last active:.*(?:\n|$)/gm;
const RESUME_HOOK = /SessionStart:resume hook success:/g;

export function normaliseSystemText(text: string): string {
  let out = text.replace(SESSION_KNOWLEDGE, '');
  if (out.includes('<system-reminder>')) out = out.replace(REMINDER_CLOSE, '\n</system-reminder>');
  return out;
}

export function normaliseMessageText(text: string): string {
  return text.replace(RESUME_HOOK, 'SessionStart:startup hook success:').replace(SESSION_ID_TAG, '').replace(LAST_ACTIVE_LINE, '');
}

/**
 * A resumed session differs from the fresh one only in identity noise: the session id, the
 * "last active" time, the resume flavour of the start hook, and per-session knowledge notes. That
 * noise sits early in the prefix, so removing it lets a resumed session reuse the cache. The
 * user's own words are never touched: only text that the client injects is matched.
 */
export const identityNormalization: BuiltinExtension = {
  name: 'identity-normalization',
  order: 300,
  create() {
    return {
      onRequest(ctx) {
        if (!isObject(ctx.body)) return;
        let changed = false;
        for (const block of systemBlocksOf(ctx.body)) {
          if (!isTextBlock(block)) continue;
          const next = normaliseSystemText(block.text);
          if (next !== block.text) {
            block.text = next;
            changed = true;
          }
        }
        for (const message of messagesOf(ctx.body)) {
          if (message.role !== 'user') continue;
          for (const block of blocksOf(message)) {
            if (!isTextBlock(block) || !block.text.includes('<system-reminder>')) continue;
            const next = normaliseMessageText(block.text);
            if (next !== block.text) {
              block.text = next;
              changed = true;
            }
          }
        }
        if (changed) ctx.markChanged();
      },
    };
  },
};
