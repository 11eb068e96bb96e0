// ConverseStream events (messageStart, contentBlockStart/Delta/Stop, messageStop, metadata; named by
// the event-stream message's event type) -> canonical events. Text blocks have no start event in
// Converse: the first delta of a new index opens one. Usage comes in `metadata`, after messageStop,
// so the message ends there (or at the end of the stream, without usage, if metadata never came).
import type { Json } from '../../../core/protocol/chat-types.ts';
import { asRecord, asString, isRecord } from '../shared/json-values.ts';
import type { StreamEventIn, StreamEventOut, StreamStep, StreamTranslation } from '../shared/stream-types.ts';
import { stopReasonFromConverse } from './stop-reasons.ts';
import { canonicalUsageFromConverse } from './usage.ts';

export interface ConverseDecodeState {
  readonly model: string;
  readonly started: boolean;
  /** The open block: Converse's index, ours, its kind. */
  readonly open: { readonly from: number; readonly index: number; readonly kind: 'text' | 'thinking' | 'tool_use' } | null;
  readonly nextIndex: number;
  readonly stop: string | null;
  readonly done: boolean;
}

type Draft = { -readonly [K in keyof ConverseDecodeState]: ConverseDecodeState[K] };
const ev = (data: Json): StreamEventOut => ({ event: String(data.type), data });

function close(s: Draft, out: StreamEventOut[]): void {
  if (!s.open) return;
  out.push(ev({ type: 'content_block_stop', index: s.open.index }));
  s.open = null;
}

function open(s: Draft, out: StreamEventOut[], from: number, kind: 'text' | 'thinking' | 'tool_use', block: Json): number {
  if (s.open?.from === from && s.open.kind === kind) return s.open.index;
  close(s, out);
  s.open = { from, index: s.nextIndex++, kind };
  out.push(ev({ type: 'content_block_start', index: s.open.index, content_block: block }));
  return s.open.index;
}

function end(s: Draft, out: StreamEventOut[], usage: unknown): void {
  close(s, out);
  out.push(ev({ type: 'message_delta', delta: { stop_reason: s.stop ?? 'end_turn', stop_sequence: null }, usage: canonicalUsageFromConverse(usage) }));
  out.push(ev({ type: 'message_stop' }));
  s.done = true;
}

function next(state: ConverseDecodeState, event: StreamEventIn): StreamStep<ConverseDecodeState> {
  if (state.done || !isRecord(event.data)) return { state, events: [] };
  const data = event.data;
  const s: Draft = { ...state };
  const out: StreamEventOut[] = [];
  if (!s.started) {
    s.started = true;
    const message = { id: '', type: 'message', role: 'assistant', model: s.model, content: [], stop_reason: null, stop_sequence: null, usage: canonicalUsageFromConverse(undefined) };
    out.push(ev({ type: 'message_start', message }));
  }
  const from = Number(data.contentBlockIndex ?? 0);
  switch (event.event) {
    case 'contentBlockStart': {
      const call = asRecord(asRecord(data.start).toolUse);
      if (call.toolUseId !== undefined) open(s, out, from, 'tool_use', { type: 'tool_use', id: String(call.toolUseId), name: String(call.name ?? ''), input: {} });
      break;
    }
    case 'contentBlockDelta': {
      const delta = asRecord(data.delta);
      if (typeof delta.text === 'string') {
        const index = open(s, out, from, 'text', { type: 'text', text: '' });
        out.push(ev({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: delta.text } }));
      } else if (delta.toolUse) {
        const index = open(s, out, from, 'tool_use', { type: 'tool_use', id: '', name: '', input: {} });
        out.push(ev({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: String(asRecord(delta.toolUse).input ?? '') } }));
      } else if (delta.reasoningContent) {
        const reasoning = asRecord(delta.reasoningContent);
        const index = open(s, out, from, 'thinking', { type: 'thinking', thinking: '', signature: '' });
        if (typeof reasoning.text === 'string') out.push(ev({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: reasoning.text } }));
        if (typeof reasoning.signature === 'string') out.push(ev({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: reasoning.signature } }));
      }
      break;
    }
    case 'contentBlockStop':
      if (s.open?.from === from) close(s, out);
      break;
    case 'messageStop':
      close(s, out);
      s.stop = stopReasonFromConverse(asString(data.stopReason));
      break;
    case 'metadata':
      end(s, out, data.usage);
      break;
  }
  return { state: s, events: out };
}

export function converseStreamToCanonical(model: string): StreamTranslation<ConverseDecodeState> {
  return {
    initial: () => ({ model, started: false, open: null, nextIndex: 0, stop: null, done: false }),
    next,
    finish: (state) => {
      if (state.done || state.stop === null) return { events: [], complete: state.done };
      const s: Draft = { ...state };
      const out: StreamEventOut[] = [];
      end(s, out, undefined);
      return { events: out, complete: true };
    },
  };
}
