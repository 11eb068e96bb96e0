// The parts of a Gemini candidate as canonical blocks: thoughts as thinking (with the signature the
// part carried), text, and function calls as tool_use whose id carries the call's signature. A text
// part's signature is Gemini's own bookkeeping for a turn without calls and is not needed back, and
// an empty text part is no block at all.
import type { Json } from '../../../core/protocol/chat-types.ts';
import type { ResponseBlock } from '../../../core/protocol/messages-types.ts';
import { asRecord, asString, isRecord } from '../shared/json-values.ts';
import { unrepresentable } from '../shared/translation-error.ts';
import { callIdWithSignature } from './call-ids.ts';
import { unpackThinking } from './packed-thinking.ts';

export type PartBlock = ResponseBlock | undefined;

/**
 * The id of a call Gemini sent without one (Gemini API models do not number their calls): unique in
 * the conversation, since clients of other protocols key tool results by id and a `call_1` in
 * every turn would collide.
 */
function generatedCallId(responseId: string | undefined, callNumber: number): string {
  return responseId ? `call_${responseId}_${callNumber}` : `call_${callNumber}`;
}

/** One part; `callNumber` (with the answer's responseId) names calls that come without an id. */
export function blockFromPart(part: Json, field: string, callNumber: number, responseId?: string): PartBlock {
  const signature = asString(part.thoughtSignature);
  if (typeof part.text === 'string') {
    if (part.thought === true) return { type: 'thinking', thinking: part.text, signature: signature ?? '' };
    // Gemini closes streams (and sometimes answers) with an empty text part, often only to carry a
    // signature; as a block it would be an empty text, which the messages protocol refuses when a
    // client sends it back.
    return part.text === '' ? undefined : { type: 'text', text: part.text };
  }
  if (isRecord(part.functionCall)) {
    const call = part.functionCall;
    const own = asString(call.id) ?? generatedCallId(responseId, callNumber);
    // A pack of thinking (the gateway's, for Gemini clients) repeats thought parts already read.
    const carried = unpackThinking(signature) ? undefined : signature;
    return { type: 'tool_use', id: callIdWithSignature(own, carried), name: String(call.name ?? ''), input: isRecord(call.args) ? call.args : {} };
  }
  if (signature !== undefined && Object.keys(part).length === 1) return undefined;
  unrepresentable(`${field}`, `is a part (${Object.keys(part).join(', ')}) the client's protocol has no equivalent for.`);
}

export function candidateParts(body: Json): Json[] {
  const candidate = asRecord(Array.isArray(body.candidates) ? body.candidates[0] : undefined);
  const parts = asRecord(candidate.content).parts;
  return Array.isArray(parts) ? parts.map(asRecord) : [];
}

export function candidateFinish(body: Json): string | undefined {
  return asString(asRecord(Array.isArray(body.candidates) ? body.candidates[0] : undefined).finishReason);
}
