// The Responses event grammar, shared by the stream translations from both upstream protocols.
// A stream reads: response.created, response.in_progress, then per output item
// output_item.added ... output_item.done (a message: content_part.added, output_text.delta*,
// output_text.done, content_part.done; reasoning: reasoning_summary_part.added,
// reasoning_summary_text.delta*, .done, reasoning_summary_part.done; a function call:
// function_call_arguments.delta*, .done), and one terminal event: response.completed,
// response.incomplete or response.failed, carrying the whole response. Every event has a rising
// sequence_number.
//
// The helpers work on a draft: the reducers copy their state, call these, and return the copy;
// nested values are replaced, never changed in place, so earlier states stay valid.
import type { ResponseStatus, ResponsesOutputItem, ResponsesUsage } from '../../../core/protocol/responses-types.ts';
import { itemId, responseId, responseObject, type ResponsesContext } from './response-object.ts';
import type { StreamEventOut } from '../shared/stream-types.ts';

type PartKind = 'output_text' | 'refusal';

/** The open message or reasoning item (one at a time; another kind closes it). */
export interface OpenText {
  readonly kind: 'message' | 'reasoning';
  readonly index: number;
  readonly id: string;
  /** Closed content parts of a message. */
  readonly parts: ReadonlyArray<{ readonly kind: PartKind; readonly text: string }>;
  /** The open content part (a message) or the summary text so far (reasoning). */
  readonly part: { readonly kind: PartKind | 'summary'; readonly text: string } | null;
  readonly encrypted: string | null;
}

export interface OpenCall {
  readonly index: number;
  readonly id: string;
  readonly callId: string;
  readonly name: string;
  readonly namespace?: string;
  readonly args: string;
}

export interface ResponsesStreamState {
  readonly context: ResponsesContext;
  readonly createdAt: number;
  readonly started: boolean;
  readonly upstreamId: string;
  readonly model: string;
  readonly seq: number;
  readonly nextIndex: number;
  readonly open: OpenText | null;
  /** Open function calls by the upstream's key for them (chat tool index, messages block index). */
  readonly calls: Readonly<Record<string, OpenCall>>;
  /** Finished items with their output_index (they may finish out of order). */
  readonly items: ReadonlyArray<{ readonly index: number; readonly item: ResponsesOutputItem }>;
  readonly done: boolean;
}

export type Draft = { -readonly [K in keyof ResponsesStreamState]: ResponsesStreamState[K] };

export function initialResponsesState(context: ResponsesContext, createdAt: number): ResponsesStreamState {
  return { context, createdAt, started: false, upstreamId: '', model: '', seq: 0, nextIndex: 0, open: null, calls: {}, items: [], done: false };
}

function emit(s: Draft, out: StreamEventOut[], type: string, fields: Record<string, unknown>): void {
  out.push({ event: type, data: { type, sequence_number: s.seq++, ...fields } });
}

function snapshot(s: Draft, status: ResponseStatus, extra: { usage?: ResponsesUsage | null; incomplete?: 'max_output_tokens' | 'content_filter'; error?: { code: string; message: string } } = {}) {
  const output = [...s.items].sort((a, b) => a.index - b.index).map((entry) => entry.item);
  return responseObject(s.context, {
    id: responseId(s.upstreamId),
    model: s.model,
    createdAt: s.createdAt,
    status,
    output,
    usage: extra.usage ?? null,
    incomplete: extra.incomplete,
    error: extra.error,
  });
}

/** `createdAt`: the upstream's own timestamp when it gives one (chat-completions does). */
export function startResponse(s: Draft, out: StreamEventOut[], upstreamId: string, model: string, createdAt?: number): void {
  s.started = true;
  if (createdAt !== undefined) s.createdAt = createdAt;
  s.upstreamId = upstreamId;
  s.model = model;
  const response = snapshot(s, 'in_progress');
  emit(s, out, 'response.created', { response });
  emit(s, out, 'response.in_progress', { response });
}

function messageItem(open: OpenText, status: 'in_progress' | 'completed' | 'incomplete'): ResponsesOutputItem {
  const parts = open.part && open.part.kind !== 'summary' ? [...open.parts, open.part as { kind: PartKind; text: string }] : open.parts;
  return {
    type: 'message',
    id: open.id,
    role: 'assistant',
    status,
    content: parts.map((p) => (p.kind === 'refusal' ? { type: 'refusal', refusal: p.text } : { type: 'output_text', text: p.text, annotations: [] })),
  };
}

function reasoningItem(open: OpenText, status: 'in_progress' | 'completed' | 'incomplete'): ResponsesOutputItem {
  const item: ResponsesOutputItem = { type: 'reasoning', id: open.id, summary: open.part ? [{ type: 'summary_text', text: open.part.text }] : [], status };
  if (open.encrypted !== null) item.encrypted_content = open.encrypted;
  return item;
}

function partBody(kind: PartKind, text: string) {
  return kind === 'refusal' ? { type: 'refusal', refusal: text } : { type: 'output_text', text, annotations: [] };
}

function closePart(s: Draft, out: StreamEventOut[], open: OpenText): OpenText {
  const part = open.part;
  if (!part || part.kind === 'summary') return open;
  const common = { item_id: open.id, output_index: open.index, content_index: open.parts.length };
  if (part.kind === 'refusal') emit(s, out, 'response.refusal.done', { ...common, refusal: part.text });
  else emit(s, out, 'response.output_text.done', { ...common, text: part.text, logprobs: NO_LOGPROBS });
  emit(s, out, 'response.content_part.done', { ...common, part: partBody(part.kind, part.text) });
  return { ...open, parts: [...open.parts, { kind: part.kind, text: part.text }], part: null };
}

/** Closes the open message or reasoning item. */
export function closeText(s: Draft, out: StreamEventOut[], status: 'completed' | 'incomplete' = 'completed'): void {
  let open = s.open;
  if (!open) return;
  if (open.kind === 'message') {
    open = closePart(s, out, open);
    const item = messageItem(open, status);
    emit(s, out, 'response.output_item.done', { output_index: open.index, item });
    s.items = [...s.items, { index: open.index, item }];
  } else {
    const text = open.part?.text ?? '';
    const common = { item_id: open.id, output_index: open.index, summary_index: 0 };
    if (open.part) {
      emit(s, out, 'response.reasoning_summary_text.done', { ...common, text });
      emit(s, out, 'response.reasoning_summary_part.done', { ...common, part: { type: 'summary_text', text } });
    }
    const item = reasoningItem(open, status);
    emit(s, out, 'response.output_item.done', { output_index: open.index, item });
    s.items = [...s.items, { index: open.index, item }];
  }
  s.open = null;
}

function openItem(s: Draft, out: StreamEventOut[], kind: 'message' | 'reasoning'): OpenText {
  closeText(s, out);
  const index = s.nextIndex++;
  const open: OpenText = { kind, index, id: itemId(kind === 'message' ? 'msg' : 'rs', s.upstreamId, index), parts: [], part: null, encrypted: null };
  const item = kind === 'message' ? messageItem(open, 'in_progress') : reasoningItem(open, 'in_progress');
  emit(s, out, 'response.output_item.added', { output_index: index, item });
  s.open = open;
  return open;
}

/** Log probabilities are never produced through translation; one shared empty list serialises the same. */
const NO_LOGPROBS: readonly never[] = Object.freeze([]);

/** Message text (or refusal text) as it arrives; opens the message and the content part as needed. */
export function textDelta(s: Draft, out: StreamEventOut[], delta: string, kind: PartKind = 'output_text'): void {
  let open = s.open?.kind === 'message' ? s.open : openItem(s, out, 'message');
  if (open.part && open.part.kind !== kind) open = closePart(s, out, open);
  if (!open.part) {
    emit(s, out, 'response.content_part.added', { item_id: open.id, output_index: open.index, content_index: open.parts.length, part: partBody(kind, '') });
    open = { ...open, part: { kind, text: '' } };
  }
  if (delta) {
    // The hot path of a stream: one literal per event, no spreading.
    const type = kind === 'refusal' ? 'response.refusal.delta' : 'response.output_text.delta';
    const data =
      kind === 'refusal'
        ? { type, sequence_number: s.seq++, item_id: open.id, output_index: open.index, content_index: open.parts.length, delta }
        : { type, sequence_number: s.seq++, item_id: open.id, output_index: open.index, content_index: open.parts.length, delta, logprobs: NO_LOGPROBS };
    out.push({ event: type, data });
  }
  s.open = { ...open, part: { kind, text: open.part!.text + delta } };
}

/** Opens a reasoning item even before any text (a thinking block starts, or arrives redacted). */
export function beginReasoning(s: Draft, out: StreamEventOut[]): void {
  openItem(s, out, 'reasoning');
}

/** Reasoning text as it arrives, as the item's summary (what Responses clients show). */
export function reasoningDelta(s: Draft, out: StreamEventOut[], delta: string): void {
  let open = s.open?.kind === 'reasoning' ? s.open : openItem(s, out, 'reasoning');
  const common = { item_id: open.id, output_index: open.index, summary_index: 0 };
  if (!open.part) {
    emit(s, out, 'response.reasoning_summary_part.added', { ...common, part: { type: 'summary_text', text: '' } });
    open = { ...open, part: { kind: 'summary', text: '' } };
  }
  if (delta) emit(s, out, 'response.reasoning_summary_text.delta', { ...common, delta });
  s.open = { ...open, part: { kind: 'summary', text: open.part!.text + delta } };
}

/** The opaque value that returns the reasoning to its upstream (a thinking signature). */
export function setEncrypted(s: Draft, out: StreamEventOut[], value: string): void {
  const open = s.open?.kind === 'reasoning' ? s.open : openItem(s, out, 'reasoning');
  s.open = { ...open, encrypted: (open.encrypted ?? '') + value };
}

export function openCall(s: Draft, out: StreamEventOut[], key: string, call: { callId: string; name: string; namespace?: string }): void {
  closeText(s, out);
  const index = s.nextIndex++;
  const open: OpenCall = { index, id: itemId('fc', s.upstreamId, index), callId: call.callId, name: call.name, namespace: call.namespace, args: '' };
  emit(s, out, 'response.output_item.added', { output_index: index, item: callItem(open, 'in_progress') });
  s.calls = { ...s.calls, [key]: open };
}

export function hasCall(s: ResponsesStreamState, key: string): boolean {
  return key in s.calls;
}

export function callDelta(s: Draft, out: StreamEventOut[], key: string, delta: string): void {
  const open = s.calls[key]!;
  if (!delta) return;
  emit(s, out, 'response.function_call_arguments.delta', { item_id: open.id, output_index: open.index, delta });
  s.calls = { ...s.calls, [key]: { ...open, args: open.args + delta } };
}

function callItem(open: OpenCall, status: 'in_progress' | 'completed' | 'incomplete'): ResponsesOutputItem {
  const item: ResponsesOutputItem = { type: 'function_call', id: open.id, call_id: open.callId, name: open.name, arguments: open.args, status };
  if (open.namespace !== undefined) item.namespace = open.namespace;
  return item;
}

function closeOneCall(s: Draft, out: StreamEventOut[], call: OpenCall, status: 'completed' | 'incomplete'): void {
  let open = call;
  // A call without arguments still carries a JSON object, as clients parse it.
  if (open.args === '' && status === 'completed') {
    emit(s, out, 'response.function_call_arguments.delta', { item_id: open.id, output_index: open.index, delta: '{}' });
    open = { ...open, args: '{}' };
  }
  emit(s, out, 'response.function_call_arguments.done', { item_id: open.id, output_index: open.index, name: open.name, arguments: open.args });
  const item = callItem(open, status);
  emit(s, out, 'response.output_item.done', { output_index: open.index, item });
  s.items = [...s.items, { index: open.index, item }];
}

/** Closes one function call (a messages upstream ends each tool block before the next starts). */
export function closeCall(s: Draft, out: StreamEventOut[], key: string): void {
  const open = s.calls[key];
  if (!open) return;
  closeOneCall(s, out, open, 'completed');
  const { [key]: _closed, ...rest } = s.calls;
  s.calls = rest;
}

/** Closes every open item: text first, then function calls in output order. */
export function closeAll(s: Draft, out: StreamEventOut[], status: 'completed' | 'incomplete' = 'completed'): void {
  closeText(s, out, status);
  for (const open of Object.values(s.calls).sort((a, b) => a.index - b.index)) closeOneCall(s, out, open, status);
  s.calls = {};
}

/** The terminal event: completed, or incomplete with the reason. */
export function finishResponse(s: Draft, out: StreamEventOut[], usage: ResponsesUsage, incomplete?: 'max_output_tokens' | 'content_filter'): void {
  closeAll(s, out, incomplete ? 'incomplete' : 'completed');
  const status = incomplete ? 'incomplete' : 'completed';
  emit(s, out, `response.${status}`, { response: snapshot(s, status, { usage, incomplete }) });
  s.done = true;
}

/** An upstream error in mid-stream: response.failed with the upstream's reason. */
export function failResponse(s: Draft, out: StreamEventOut[], error: { code: string; message: string }): void {
  if (!s.started) startResponse(s, out, s.upstreamId, s.model);
  closeAll(s, out, 'incomplete');
  emit(s, out, 'response.failed', { response: snapshot(s, 'failed', { error }) });
  s.done = true;
}
