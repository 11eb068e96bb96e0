// canonical events -> Gemini stream chunks (an upstream of another protocol, a Gemini client). Each
// text or thought delta is a chunk; a function call is sent whole once its arguments are complete
// (Gemini streams calls whole); a thought's signature follows it as a signature-only thought part.
// Every chunk carries usageMetadata as far as known (as Gemini's do, so a cut stream still tells the
// prompt size); the last one carries finishReason and the final figures.
import type { Json } from '../../../core/protocol/chat-types.ts';
import { geminiErrorStatus } from '../../../core/protocol/error-bodies.ts';
import { asNumber, asRecord, asString, isRecord, parseJsonText } from '../shared/json-values.ts';
import type { StreamEventIn, StreamEventOut, StreamStep, StreamTranslation } from '../shared/stream-types.ts';
import { unrepresentable } from '../shared/translation-error.ts';
import { geminiCandidate } from './encode-answer.ts';
import { geminiFinishReason } from './finish-reasons.ts';
import { geminiUsageFromCanonical } from './usage.ts';

export interface GeminiEncodeState {
  readonly id: string;
  readonly model: string;
  readonly usage: Readonly<Json>;
  /** Block index -> the call whose arguments are arriving. */
  readonly calls: Readonly<Record<number, { id: string; name: string; json: string }>>;
  readonly stop: string | null;
  readonly done: boolean;
}

type Step = StreamStep<GeminiEncodeState>;

function chunk(state: GeminiEncodeState, parts: Json[], finishReason?: string): StreamEventOut {
  return { data: { candidates: [geminiCandidate(parts, finishReason)], usageMetadata: geminiUsageFromCanonical(state.usage), modelVersion: state.model, responseId: state.id } };
}

function blockStart(state: GeminiEncodeState, index: number, block: Json): Step {
  switch (block.type) {
    case 'text':
      return { state, events: asString(block.text) ? [chunk(state, [{ text: block.text }])] : [] };
    case 'thinking':
      return { state, events: asString(block.thinking) ? [chunk(state, [{ text: block.thinking, thought: true }])] : [] };
    case 'redacted_thinking':
      return { state, events: [] };
    case 'tool_use': {
      const input = isRecord(block.input) && Object.keys(block.input).length > 0 ? JSON.stringify(block.input) : '';
      return { state: { ...state, calls: { ...state.calls, [index]: { id: String(block.id ?? ''), name: String(block.name ?? ''), json: input } } }, events: [] };
    }
    default:
      unrepresentable('content_block_start.content_block.type', `"${String(block.type)}" has no Gemini equivalent.`);
  }
}

function blockDelta(state: GeminiEncodeState, index: number, delta: Json): Step {
  switch (delta.type) {
    case 'text_delta':
      return { state, events: [chunk(state, [{ text: String(delta.text ?? '') }])] };
    case 'thinking_delta':
      return { state, events: [chunk(state, [{ text: String(delta.thinking ?? ''), thought: true }])] };
    case 'input_json_delta': {
      const call = state.calls[index];
      if (!call) return { state, events: [] };
      return { state: { ...state, calls: { ...state.calls, [index]: { ...call, json: call.json + String(delta.partial_json ?? '') } } }, events: [] };
    }
    case 'signature_delta':
      // The client sends it back on the same part, and the thinking goes upstream signed again.
      return { state, events: delta.signature ? [chunk(state, [{ text: '', thought: true, thoughtSignature: String(delta.signature) }])] : [] };
    default:
      // Citations and the like have no Gemini part.
      return { state, events: [] };
  }
}

function blockStop(state: GeminiEncodeState, index: number): Step {
  const call = state.calls[index];
  if (!call) return { state, events: [] };
  const args = call.json.trim() === '' ? {} : parseJsonText(call.json);
  if (!isRecord(args)) unrepresentable('input_json_delta', 'did not make a JSON object, and Gemini function arguments must be one.');
  const { [index]: _done, ...rest } = state.calls;
  return { state: { ...state, calls: rest }, events: [chunk(state, [{ functionCall: { id: call.id, name: call.name, args } }])] };
}

function next(state: GeminiEncodeState, event: StreamEventIn): Step {
  if (state.done || !isRecord(event.data)) return { state, events: [] };
  const data = event.data;
  switch (data.type) {
    case 'message_start': {
      const message = asRecord(data.message);
      return { state: { ...state, id: asString(message.id) ?? state.id, model: asString(message.model) ?? state.model, usage: asRecord(message.usage) }, events: [] };
    }
    case 'content_block_start':
      return blockStart(state, asNumber(data.index) ?? 0, asRecord(data.content_block));
    case 'content_block_delta':
      return blockDelta(state, asNumber(data.index) ?? 0, asRecord(data.delta));
    case 'content_block_stop':
      return blockStop(state, asNumber(data.index) ?? 0);
    case 'message_delta': {
      const stop = asString(asRecord(data.delta).stop_reason) ?? state.stop;
      return { state: { ...state, stop, usage: { ...state.usage, ...asRecord(data.usage) } }, events: [] };
    }
    case 'message_stop':
      return { state: { ...state, done: true }, events: [chunk(state, [{ text: '' }], geminiFinishReason(state.stop))] };
    case 'error': {
      const error = asRecord(data.error);
      const code = error.type === 'rate_limit_error' ? 429 : error.type === 'overloaded_error' ? 503 : 500;
      return { state: { ...state, done: true }, events: [{ data: { error: { code, message: String(error.message ?? 'upstream stream error'), status: geminiErrorStatus(code) } } }] };
    }
    default:
      return { state, events: [] };
  }
}

export const canonicalStreamToGemini: StreamTranslation<GeminiEncodeState> = {
  initial: () => ({ id: '', model: '', usage: {}, calls: {}, stop: null, done: false }),
  next,
  finish: (state) => ({ events: [], complete: state.done }),
};
