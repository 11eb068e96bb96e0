import type { BuiltinExtension, RequestMeta } from './types.ts';
import { isObject, type JsonObject } from '../util/json-value.ts';
import { canonicalJson, sha256Hex } from '../util/sha256.ts';
import { readSessionFile } from '../telemetry/session-file.ts';
import { blocksOf, messagesOf, type Message } from './shared/message-content.ts';
import { BoundedMap } from './shared/bounded-map.ts';

type SanitizeMode = 'off' | 'v1' | 'v2';

export function sanitizeModeOf(raw: string | undefined): SanitizeMode {
  const value = (raw ?? '').trim().toLowerCase();
  if (value === 'off') return 'off';
  if (value === 'v2') return 'v2';
  return 'v1';
}

export function toolsHash(tools: unknown): string {
  if (!Array.isArray(tools) || tools.length === 0) return 'none';
  return sha256Hex(canonicalJson(tools)).slice(0, 16);
}

function isEmptyThinking(block: JsonObject): boolean {
  return block.type === 'thinking' && (typeof block.thinking !== 'string' || block.thinking.trim() === '');
}

function isSignedThinking(block: JsonObject): boolean {
  return (block.type === 'thinking' && typeof block.signature === 'string' && block.signature !== '') || block.type === 'redacted_thinking';
}

/**
 * The API requires the thinking blocks of the turn still in a tool loop to come back unchanged:
 * the newest assistant message is protected when its last tool_use is answered after it.
 */
function protectedMessage(messages: Message[]): Message | null {
  let lastAssistant = -1;
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    if (messages[i].role === 'assistant') {
      lastAssistant = i;
      break;
    }
  }
  if (lastAssistant < 0) return null;
  const blocks = blocksOf(messages[lastAssistant]);
  const last = blocks[blocks.length - 1];
  if (!last || last.type !== 'tool_use' || typeof last.id !== 'string') return null;
  const answered = messages
    .slice(lastAssistant + 1)
    .some((m) => blocksOf(m).some((b) => b.type === 'tool_result' && b.tool_use_id === last.id));
  return answered ? messages[lastAssistant] : null;
}

/** Removes matching blocks from earlier assistant turns; a turn left empty is removed too. */
function dropBlocks(body: JsonObject, shouldDrop: (block: JsonObject) => boolean): number {
  const messages = messagesOf(body);
  const keep = protectedMessage(messages);
  let dropped = 0;
  const emptied = new Set<unknown>();
  for (const message of messages) {
    if (message.role !== 'assistant' || message === keep || !Array.isArray(message.content)) continue;
    const content: unknown[] = message.content;
    const kept = content.filter((block) => !(isObject(block) && shouldDrop(block)));
    if (kept.length === content.length) continue;
    dropped += content.length - kept.length;
    message.content = kept;
    if (kept.length === 0) emptied.add(message);
  }
  if (emptied.size > 0 && Array.isArray(body.messages)) body.messages = body.messages.filter((m) => !emptied.has(m));
  return dropped;
}

/**
 * Empty thinking blocks (display "omitted", or a client that lost the text) make the API refuse
 * the whole request with "thinking blocks cannot be modified" and wedge the session. v1 removes
 * them from earlier turns. v2 (opt-in) also drops signed thinking after the tool list changed,
 * because signatures are bound to the tools they were produced with.
 */
export const thinkingBlockSanitize: BuiltinExtension = {
  name: 'thinking-block-sanitize',
  order: 550,
  create(services) {
    const mode = sanitizeModeOf(services.env.CACHE_FIX_THINKING_SANITIZE);
    const baselines = new BoundedMap<string, string>(2048);
    const pendingHash = new WeakMap<RequestMeta, string>();

    function baselineOf(sessionId: string): string | undefined {
      let baseline = baselines.get(sessionId);
      if (baseline === undefined) {
        const seeded = readSessionFile(services.homeDir, sessionId).tools_hash_baseline;
        if (typeof seeded === 'string') {
          baseline = seeded;
          baselines.set(sessionId, seeded);
        }
      }
      return baseline;
    }

    return {
      onRequest(ctx) {
        if (mode === 'off' || !isObject(ctx.body)) return;
        const dropped = dropBlocks(ctx.body, isEmptyThinking);
        const fields: JsonObject = { thinking_blocks_dropped: dropped };
        let droppedV2 = 0;
        if (mode === 'v2' && ctx.meta.sessionId !== null) {
          const hash = toolsHash(ctx.body.tools);
          const baseline = baselineOf(ctx.meta.sessionId);
          if (baseline !== undefined && baseline !== hash) droppedV2 = dropBlocks(ctx.body, isSignedThinking);
          pendingHash.set(ctx.meta, hash);
          fields.thinking_blocks_dropped_v2 = droppedV2;
          fields.tools_hash_baseline = baseline ?? hash;
        }
        ctx.meta.session.sanitize = fields;
        if (dropped + droppedV2 > 0) ctx.markChanged();
      },
      onResponseStart(ctx) {
        // Only a request the API accepted proves the new tool list is the one signatures now follow.
        const hash = pendingHash.get(ctx.meta);
        if (hash === undefined || ctx.meta.sessionId === null || ctx.status < 200 || ctx.status >= 300) return;
        baselines.set(ctx.meta.sessionId, hash);
        if (ctx.meta.session.sanitize) ctx.meta.session.sanitize.tools_hash_baseline = hash;
      },
    };
  },
};
