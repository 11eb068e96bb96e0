// The event that ends a stream which failed after the client already received 200.
import { encodeSse } from '../../core/protocol/sse.ts';
import { messagesErrorBody, openAiErrorBody, type ApiSurface } from '../../core/protocol/error-bodies.ts';

export function streamErrorEvent(surface: ApiSurface, message: string): string {
  return surface === 'messages'
    ? encodeSse(messagesErrorBody(502, message), 'error')
    : encodeSse(openAiErrorBody(502, message, { code: 'upstream_stream_error' }));
}
