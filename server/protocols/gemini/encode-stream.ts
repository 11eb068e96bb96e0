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
import { packThinking, type ThinkingBlock } from './packed-thinking.ts';
import { geminiUsageFromCanonical } from './usage.ts';

export interface GeminiEncodeState {
  readonly id: string;
  readonly model: string;
  readonly usage: Readonly<Json>;
  /** Block index -> the call whose arguments are arriving. */
  readonly calls: Readonly<Record<number, { id: string; name: string; json: string }>>;
  readonly stop: string | null;
  readonly done: boolean;
  /** Thinking since the last call, packed into the next call's signature (packed-thinking.ts). */
  readonly thinking: readonly ThinkingBlock[];
}

/** The last thinking block, changed. */
function withLastThinking(state: GeminiEncodeState, change: (block: ThinkingBlock & { type: 'thinking' }) => ThinkingBlock): GeminiEncodeState {
  const last = state.thinking.at(-1);
  if (last?.type !== 'thinking') return state;
  return { ...state, thinking: [...state.thinking.slice(0, -1), change(last)] };
}

type Step = StreamStep<GeminiEncodeState>;

/** usageMetadata as JSON, once per usage object (the same for every text chunk between two usage reports). */
const USAGE_JSON = new WeakMap<object, string>();
function usageJson(usage: Readonly<Json>): string {
  let text = USAGE_JSON.get(usage);
  if (text === undefined) {
    text = JSON.stringify(geminiUsageFromCanonical(usage));
    USAGE_JSON.set(usage, text);
  }
  return text;
}

/** What follows the text in a text chunk, once per state (a piece of text leaves the state as it is). */
const TEXT_FRAME_TAIL = new WeakMap<GeminiEncodeState, string>();
function textFrameTail(state: GeminiEncodeState): string {
  let tail = TEXT_FRAME_TAIL.get(state);
  if (tail === undefined) {
    tail = `}]},"index":0}],"usageMetadata":${usageJson(state.usage)},"modelVersion":${JSON.stringify(state.model)},"responseId":${JSON.stringify(state.id)}}\n\n`;
    TEXT_FRAME_TAIL.set(state, tail);
  }
  return tail;
}

function chunk(state: GeminiEncodeState, parts: Json[], finishReason?: string): StreamEventOut {
  return { data: { candidates: [geminiCandidate(parts, finishReason)], usageMetadata: geminiUsageFromCanonical(state.usage), modelVersion: state.model, responseId: state.id } };
}

function blockStart(state: GeminiEncodeState, index: number, block: Json): Step {
  switch (block.type) {
    case 'text':
      return { state, events: asString(block.text) ? [chunk(state, [{ text: block.text }])] : [] };
    case 'thinking': {
      const next = { ...state, thinking: [...state.thinking, { type: 'thinking' as const, thinking: asString(block.thinking) ?? '', signature: asString(block.signature) ?? '' }] };
      return { state: next, events: asString(block.thinking) ? [chunk(state, [{ text: block.thinking, thought: true }])] : [] };
    }
    case 'redacted_thinking':
      return { state: { ...state, thinking: [...state.thinking, { type: 'redacted_thinking', data: asString(block.data) ?? '' }] }, events: [] };
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
    case 'thinking_delta': {
      const text = String(delta.thinking ?? '');
      return { state: withLastThinking(state, (b) => ({ ...b, thinking: b.thinking + text })), events: [chunk(state, [{ text, thought: true }])] };
    }
    case 'input_json_delta': {
      const call = state.calls[index];
      if (!call) return { state, events: [] };
      return { state: { ...state, calls: { ...state.calls, [index]: { ...call, json: call.json + String(delta.partial_json ?? '') } } }, events: [] };
    }
    case 'signature_delta': {
      // The client sends it back on the same part, and the thinking goes upstream signed again.
      const signature = String(delta.signature ?? '');
      return { state: withLastThinking(state, (b) => ({ ...b, signature })), events: signature ? [chunk(state, [{ text: '', thought: true, thoughtSignature: signature }])] : [] };
    }
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
  const part: Json = { functionCall: { id: call.id, name: call.name, args } };
  const packed = packThinking(state.thinking);
  if (packed) part.thoughtSignature = packed;
  return { state: { ...state, calls: rest, thinking: [] }, events: [chunk(state, [part])] };
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
  initial: () => ({ id: '', model: '', usage: {}, calls: {}, stop: null, done: false, thinking: [] }),
  // The chunk chunk() makes for a text delta, written around the text's JSON literal.
  rawTextFrame: (state, literal) => (state.done ? undefined : `data: {"candidates":[{"content":{"role":"model","parts":[{"text":${literal}${textFrameTail(state)}`),
  next,
  finish: (state) => ({ events: [], complete: state.done }),
};
