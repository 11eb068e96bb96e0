// Two stream reducers in a row: upstream events -> canonical events (the upstream codec's decoder)
// -> client events (the client codec's encoder). The stream is complete when both sides say so.
import type { StreamContext, StreamEventOut, StreamTranslation } from './stream-types.ts';

interface Pair {
  up: unknown;
  down: unknown;
}

export function composeStreams(decoder: StreamTranslation<unknown>, encoder: StreamTranslation<unknown>): StreamTranslation<Pair> {
  const encode = (state: Pair, events: StreamEventOut[], out: StreamEventOut[]): void => {
    for (const event of events) {
      const step = encoder.next(state.down, event);
      state.down = step.state;
      for (const e of step.events) out.push(e);
    }
  };
  const rawText = decoder.rawText;
  const rawTextFrame = encoder.rawTextFrame;
  const both = rawText !== undefined && rawTextFrame !== undefined;
  return {
    initial: (context: StreamContext) => ({ up: decoder.initial(context), down: encoder.initial(context) }),
    // A piece of text goes from the upstream's literal to the client's frame, parsed and stringified
    // by nobody: the decoder reads the literal, the encoder writes the frame around it.
    rawText: both ? (state, data) => rawText(state.up, data) : undefined,
    rawTextFrame: both ? (state, literal) => rawTextFrame(state.down, literal) : undefined,
    next(state, event) {
      const decoded = decoder.next(state.up, event);
      const next = { up: decoded.state, down: state.down };
      const out: StreamEventOut[] = [];
      encode(next, decoded.events, out);
      return { state: next, events: out };
    },
    finish(state) {
      const decoded = decoder.finish(state.up);
      const next = { up: state.up, down: state.down };
      const out: StreamEventOut[] = [];
      encode(next, decoded.events, out);
      const encoded = encoder.finish(next.down);
      for (const e of encoded.events) out.push(e);
      return { events: out, complete: decoded.complete && encoded.complete };
    },
  };
}
