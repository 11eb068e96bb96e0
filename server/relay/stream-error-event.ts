// The event that ends a stream which failed after the client already received 200.
import { encodeSse } from '../../core/protocol/sse.ts';
import { errorBodyFor, type ApiSurface } from '../../core/protocol/error-bodies.ts';

/** Messages streams name the event `error`; chat-completions and Gemini streams send the envelope as data. */
export function streamErrorEvent(surface: ApiSurface, message: string): string {
  return encodeSse(errorBodyFor(surface, 502, message, { code: 'upstream_stream_error' }), surface === 'messages' ? 'error' : undefined);
}
