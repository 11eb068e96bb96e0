// The contract of a stream translation: a pure reducer over parsed upstream events.
//   next(state, event) -> { state, events }   for every event as it arrives
//   finish(state)      -> { events, complete } when the upstream body ends
// The relay parses SSE (with a streaming UTF-8 decoder) and encodes what comes out.

/** One upstream SSE event: `data` is the parsed JSON, or the string "[DONE]". */
export interface StreamEventIn {
  event?: string;
  data: unknown;
}

/** One event for the client: `data` is encoded as JSON, a string as is. */
export interface StreamEventOut {
  event?: string;
  data: unknown;
}

export interface StreamStep<S> {
  state: S;
  events: StreamEventOut[];
}

export interface StreamEnd {
  events: StreamEventOut[];
  /** False when the upstream stopped before its answer was complete. */
  complete: boolean;
}

export interface StreamContext {
  /** Unix seconds for chat-completions chunks. */
  created: number;
}

export interface StreamTranslation<S> {
  initial(context: StreamContext): S;
  next(state: S, event: StreamEventIn): StreamStep<S>;
  finish(state: S): StreamEnd;
  /**
   * The fast path of the commonest event, a piece of text, for a decoder: the JSON string literal of
   * the text when the raw event data is nothing but that (read without parsing the event) and
   * taking it changes nothing in `state`; otherwise undefined, and the event goes through next().
   */
  rawText?(state: S, data: string): string | undefined;
  /** The same for an encoder: the client's SSE text for a piece of text given as its JSON literal, when `state` needs no change. */
  rawTextFrame?(state: S, literal: string): string | undefined;
}

/** A JSON string literal, escapes included (what rawText hands on). */
export const JSON_STRING = '"(?:[^"\\\\]|\\\\.)*"';
