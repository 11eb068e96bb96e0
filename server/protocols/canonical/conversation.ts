// The canonical conversation: what every protocol decodes into and encodes from, so a translation
// between any two protocols is one decoder and one encoder, never a translator per pair.
//
// Its vocabulary is the richest the four protocols share: a system prompt of text parts, turns of
// typed content blocks (text with cache markers, images, documents, thinking with the signature it
// was issued with, redacted thinking, tool calls and tool results), tool definitions and choice,
// output limits, stop sequences, sampling, reasoning effort, structured output and a caller id.
// The blocks and events are spelled as the messages protocol spells them, the most detailed of the
// four (cache markers, signatures, both cache-write classes), so that protocol's codec is nearly
// the identity and costs nothing.
//
// Fields a protocol has and this model has not travel in `extras`, keyed by the family that
// understands them, with the field path the client wrote: an encoder of that family uses them, any
// other encoder judges them (accepted when they carry the "not used" value, otherwise refused with
// the client's field name), so nothing is dropped silently.
import type { MessagesRequest, MessagesResponse, MessagesStreamEvent } from '../../../core/protocol/messages-types.ts';

/** A field only one family of protocols understands, as the client wrote it. */
export interface ForeignField {
  /** The path in the client's request, for a refusal (`text.verbosity`). */
  field: string;
  value: unknown;
}

export interface CanonicalExtras {
  /** OpenAI-family fields (chat completions, Responses), keyed by their chat-completions name. */
  openai?: Record<string, ForeignField>;
}

/** A request: `model` and `max_tokens` are set by the encoder (the upstream's name, its default limit). */
export type CanonicalRequest = Omit<MessagesRequest, 'model' | 'max_tokens'> & {
  model?: string;
  max_tokens?: number;
  extras?: CanonicalExtras;
};

/** One whole answer; `created` is the upstream's timestamp (Unix seconds) where its protocol has one. */
export type CanonicalAnswer = MessagesResponse & { created?: number };

/** One event of an answer as it streams. */
export type CanonicalEvent = MessagesStreamEvent;
