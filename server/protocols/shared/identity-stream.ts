// The stream reducer of a protocol whose events already are canonical: each event passes as it is.
// Whether the stream was complete is judged by the other side of the translation.
import type { StreamEventIn, StreamTranslation } from './stream-types.ts';

export const identityStream: StreamTranslation<null> = {
  initial: () => null,
  next: (state, event: StreamEventIn) => ({ state, events: [event] }),
  finish: () => ({ events: [], complete: true }),
};
