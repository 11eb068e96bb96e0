// Gemini stream (alt=sse: each event a whole GenerateContentResponse) -> canonical events (a Gemini
// upstream, a client of another protocol). Gemini has no block indices or ids: consecutive text (or
// thought) parts make one block, each function call is a block of its own, a thought's signature
// closes its block as a signature_delta. The chunk with finishReason ends the message; usage
// repeats in chunks and the last one counts.
import type { Json } from '../../../core/protocol/chat-types.ts';
import { asRecord, asString, isRecord } from '../shared/json-values.ts';
import { JSON_STRING, type StreamEventIn, type StreamEventOut, type StreamStep, type StreamTranslation } from '../shared/stream-types.ts';
import { stopReasonFromGemini } from './finish-reasons.ts';
import { blockFromPart, candidateFinish, candidateParts } from './parts-to-blocks.ts';
import { canonicalUsageFromGemini } from './usage.ts';

export interface GeminiDecodeState {
  readonly started: boolean;
  readonly nextIndex: number;
  readonly open: { readonly index: number; readonly kind: 'text' | 'thinking'; readonly signature: string } | null;
  readonly calls: number;
  readonly usage: unknown;
  readonly done: boolean;
}

type Draft = { -readonly [K in keyof GeminiDecodeState]: GeminiDecodeState[K] };

const ev = (data: Json): StreamEventOut => ({ event: String(data.type), data });

function closeOpen(s: Draft, out: StreamEventOut[]): void {
  if (!s.open) return;
  if (s.open.kind === 'thinking' && s.open.signature) out.push(ev({ type: 'content_block_delta', index: s.open.index, delta: { type: 'signature_delta', signature: s.open.signature } }));
  out.push(ev({ type: 'content_block_stop', index: s.open.index }));
  s.open = null;
}

function streamed(s: Draft, out: StreamEventOut[], kind: 'text' | 'thinking', text: string, signature: string): void {
  if (s.open?.kind !== kind) {
    closeOpen(s, out);
    s.open = { index: s.nextIndex++, kind, signature: '' };
    out.push(ev({ type: 'content_block_start', index: s.open.index, content_block: kind === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '', signature: '' } }));
  }
  if (signature) s.open = { ...s.open, signature };
  if (text === '') return;
  const delta = kind === 'text' ? { type: 'text_delta', text } : { type: 'thinking_delta', thinking: text };
  out.push(ev({ type: 'content_block_delta', index: s.open.index, delta }));
}

function errorEvent(error: Json): StreamEventOut {
  const status = asString(error.status);
  const type = status === 'RESOURCE_EXHAUSTED' ? 'rate_limit_error' : status === 'UNAVAILABLE' ? 'overloaded_error' : 'api_error';
  return ev({ type: 'error', error: { type, message: String(error.message ?? 'upstream stream error') } });
}

function next(state: GeminiDecodeState, event: StreamEventIn): StreamStep<GeminiDecodeState> {
  if (state.done || !isRecord(event.data)) return { state, events: [] };
  const chunk = event.data;
  const s: Draft = { ...state };
  const out: StreamEventOut[] = [];
  if (isRecord(chunk.error)) {
    closeOpen(s, out);
    out.push(errorEvent(chunk.error));
    return { state: { ...s, done: true }, events: out };
  }
  if (chunk.usageMetadata !== undefined) s.usage = chunk.usageMetadata;
  if (!s.started) {
    s.started = true;
    const usage = asRecord(canonicalUsageFromGemini(s.usage));
    const message = { id: asString(chunk.responseId) ?? '', type: 'message', role: 'assistant', model: asString(chunk.modelVersion) ?? '', content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 0 } };
    out.push(ev({ type: 'message_start', message }));
  }
  candidateParts(chunk).forEach((part, i) => {
    const signature = asString(part.thoughtSignature) ?? '';
    const block = blockFromPart(part, `candidates[0].content.parts[${i}]`, s.calls, asString(chunk.responseId));
    if (!block) return;
    if (block.type === 'text') streamed(s, out, 'text', block.text, '');
    else if (block.type === 'thinking') streamed(s, out, 'thinking', block.thinking, signature);
    else if (block.type === 'tool_use') {
      closeOpen(s, out);
      s.calls += 1;
      const index = s.nextIndex++;
      out.push(ev({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } }));
      out.push(ev({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } }));
      out.push(ev({ type: 'content_block_stop', index }));
    }
  });
  const blocked = asString(asRecord(chunk.promptFeedback).blockReason);
  const finish = blocked ? 'SAFETY' : candidateFinish(chunk);
  if (finish === undefined) return { state: s, events: out };
  closeOpen(s, out);
  const stop = stopReasonFromGemini(finish, s.calls > 0);
  out.push(ev({ type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: canonicalUsageFromGemini(s.usage) }));
  out.push(ev({ type: 'message_stop' }));
  return { state: { ...s, done: true }, events: out };
}

/**
 * A chunk that holds one candidate with one plain text part and nothing that ends or changes the
 * message (no finishReason, thought, signature, call, feedback): its usage, if any, is the partial
 * one Gemini repeats, which the last chunk gives in full.
 */
const TEXT_CHUNK = new RegExp(
  `^\\{\\s*"candidates"\\s*:\\s*\\[\\s*\\{\\s*"content"\\s*:\\s*\\{\\s*(?:"role"\\s*:\\s*"model"\\s*,\\s*)?"parts"\\s*:\\s*\\[\\s*\\{\\s*"text"\\s*:\\s*(${JSON_STRING})\\s*\\}\\s*\\]\\s*(?:,\\s*"role"\\s*:\\s*"model"\\s*)?\\}\\s*(?:,\\s*"index"\\s*:\\s*0\\s*)?\\}\\s*\\]\\s*(?:,\\s*"usageMetadata"\\s*:\\s*\\{(?:[^{}]|\\{[^{}]*\\})*\\}\\s*)?(?:,\\s*"modelVersion"\\s*:\\s*"[^"]*"\\s*)?(?:,\\s*"responseId"\\s*:\\s*"[^"]*"\\s*)?\\}$`,
);

export const geminiStreamToCanonical: StreamTranslation<GeminiDecodeState> = {
  initial: () => ({ started: false, nextIndex: 0, open: null, calls: 0, usage: undefined, done: false }),
  // Text within an open text block: the state stays as it is.
  rawText: (state, data) => (state.open?.kind === 'text' && !state.done ? TEXT_CHUNK.exec(data)?.[1] : undefined),
  next,
  finish: (state) => ({ events: [], complete: state.done }),
};
