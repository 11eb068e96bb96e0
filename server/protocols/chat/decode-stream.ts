// chat-completions chunks -> messages-protocol stream (a chat upstream, a messages client).
// The first chunk opens the message; content, reasoning and each tool call open their own block
// (a block is closed when another kind starts, tool blocks when the choice finishes, since chat
// servers may interleave the arguments of parallel calls); finish_reason closes the blocks, and
// message_delta + message_stop follow once the usage chunk or [DONE] has arrived, because
// chat-completions reports usage after the finish reason.
import type { Json } from '../../../core/protocol/chat-types.ts';
import type { MessagesUsage, StopReason } from '../../../core/protocol/messages-types.ts';
import { messagesErrorType } from '../../../core/protocol/error-bodies.ts';
import { reasoningText } from './decode-answer.ts';
import { asNumber, asRecord, asString, isRecord } from '../shared/json-values.ts';
import { stopReasonFor } from './stop-reasons.ts';
import type { StreamEventIn, StreamEventOut, StreamStep, StreamTranslation } from '../shared/stream-types.ts';
import { messagesUsageFromChat } from './usage.ts';

type OpenKind = 'text' | 'thinking';

export interface ChatToMessagesState {
  readonly started: boolean;
  readonly nextIndex: number;
  /** The open text or thinking block. */
  readonly open: { readonly index: number; readonly kind: OpenKind } | null;
  /** Tool call index -> block index, for blocks still open. */
  readonly tools: Readonly<Record<number, number>>;
  readonly stop: { readonly stop_reason: StopReason; readonly stop_sequence: string | null } | null;
  readonly usage: MessagesUsage | null;
  /** The model refused (chat-completions streams the refusal text in `refusal` deltas). */
  readonly refused: boolean;
  readonly done: boolean;
}

const ev = (data: Json): StreamEventOut => ({ event: String(data.type), data });

/** Mutable scratch for one step; the reducer copies the state in and returns a new one. */
type Draft = { -readonly [K in keyof ChatToMessagesState]: ChatToMessagesState[K] };

function closeOpen(s: Draft, out: StreamEventOut[]): void {
  if (s.open) out.push(ev({ type: 'content_block_stop', index: s.open.index }));
  s.open = null;
}

function closeAll(s: Draft, out: StreamEventOut[]): void {
  closeOpen(s, out);
  for (const index of Object.values(s.tools).sort((a, b) => a - b)) out.push(ev({ type: 'content_block_stop', index }));
  s.tools = {};
}

function ensureOpen(s: Draft, kind: OpenKind, out: StreamEventOut[]): number {
  if (s.open?.kind === kind) return s.open.index;
  closeOpen(s, out);
  const index = s.nextIndex++;
  const block = kind === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '', signature: '' };
  out.push(ev({ type: 'content_block_start', index, content_block: block }));
  s.open = { index, kind };
  return index;
}

function finalize(s: Draft, out: StreamEventOut[]): void {
  closeAll(s, out);
  const stop = s.stop ?? { stop_reason: 'end_turn' as const, stop_sequence: null };
  const usage = s.usage ?? { input_tokens: 0, output_tokens: 0 };
  out.push(ev({ type: 'message_delta', delta: { ...stop }, usage: { ...usage } }));
  out.push(ev({ type: 'message_stop' }));
  s.done = true;
}

function start(s: Draft, data: Json, out: StreamEventOut[]): void {
  s.started = true;
  out.push(
    ev({
      type: 'message_start',
      message: {
        id: asString(data.id) ?? '',
        type: 'message',
        role: 'assistant',
        model: asString(data.model) ?? '',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        // chat-completions reports usage at the end; the final message_delta carries it.
        usage: { input_tokens: 0, output_tokens: 0 },
      },
    }),
  );
}

function applyDelta(s: Draft, delta: Json, out: StreamEventOut[]): void {
  const reasoning = reasoningText(delta);
  if (reasoning) out.push(ev({ type: 'content_block_delta', index: ensureOpen(s, 'thinking', out), delta: { type: 'thinking_delta', thinking: reasoning } }));
  if (Array.isArray(delta.thinking_blocks)) {
    for (const entry of delta.thinking_blocks) {
      const b = asRecord(entry);
      if (b.type === 'redacted_thinking') {
        closeOpen(s, out);
        const index = s.nextIndex++;
        out.push(ev({ type: 'content_block_start', index, content_block: { type: 'redacted_thinking', data: String(b.data ?? '') } }));
        out.push(ev({ type: 'content_block_stop', index }));
      } else if (typeof b.signature === 'string' && b.signature) {
        out.push(ev({ type: 'content_block_delta', index: ensureOpen(s, 'thinking', out), delta: { type: 'signature_delta', signature: b.signature } }));
      }
    }
  }
  if (asString(delta.refusal)) s.refused = true;
  for (const text of [asString(delta.content), asString(delta.refusal)]) {
    if (text) out.push(ev({ type: 'content_block_delta', index: ensureOpen(s, 'text', out), delta: { type: 'text_delta', text } }));
  }
  if (!Array.isArray(delta.tool_calls)) return;
  for (const item of delta.tool_calls) {
    const call = asRecord(item);
    const callIndex = asNumber(call.index) ?? 0;
    const fn = asRecord(call.function);
    let index = s.tools[callIndex];
    if (index === undefined) {
      closeOpen(s, out);
      index = s.nextIndex++;
      s.tools = { ...s.tools, [callIndex]: index };
      const block = { type: 'tool_use', id: asString(call.id) ?? `call_${callIndex}`, name: asString(fn.name) ?? '', input: {} };
      out.push(ev({ type: 'content_block_start', index, content_block: block }));
    }
    const args = asString(fn.arguments);
    if (args) out.push(ev({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: args } }));
  }
}

export const chatStreamToMessages: StreamTranslation<ChatToMessagesState> = {
  initial() {
    return { started: false, nextIndex: 0, open: null, tools: {}, stop: null, usage: null, refused: false, done: false };
  },

  next(state, event: StreamEventIn): StreamStep<ChatToMessagesState> {
    if (state.done) return { state, events: [] };
    const s: Draft = { ...state };
    const out: StreamEventOut[] = [];
    if (event.data === '[DONE]') {
      if (!s.started) return { state, events: [] };
      finalize(s, out);
      return { state: s, events: out };
    }
    if (!isRecord(event.data)) return { state, events: [] };
    const data = event.data;
    if (isRecord(data.error)) {
      const error = data.error;
      const code = asNumber(error.code);
      const body = { type: 'error', error: { type: code ? messagesErrorType(code) : 'api_error', message: String(error.message ?? 'upstream stream error') } };
      return { state: { ...s, done: true }, events: [{ event: 'error', data: body }] };
    }
    if (!s.started) start(s, data, out);
    const choice = Array.isArray(data.choices) ? asRecord(data.choices[0]) : {};
    applyDelta(s, asRecord(choice.delta), out);
    const finish = asString(choice.finish_reason);
    if (finish) {
      s.stop = s.refused ? { stop_reason: 'refusal', stop_sequence: null } : stopReasonFor(finish, choice.stop_reason);
      closeAll(s, out);
    }
    if (isRecord(data.usage)) s.usage = messagesUsageFromChat(data.usage);
    return { state: s, events: out };
  },

  finish(state) {
    if (state.done) return { events: [], complete: true };
    // Some servers end without [DONE]; a finish reason means the answer was complete.
    if (!state.stop) return { events: [], complete: false };
    const s: Draft = { ...state };
    const out: StreamEventOut[] = [];
    finalize(s, out);
    return { events: out, complete: true };
  },
};
