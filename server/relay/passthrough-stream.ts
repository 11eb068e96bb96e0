// A same-protocol stream relayed to the client: each chunk forwarded as received while a
// StreamObserver reads usage on the side. A stream that ends before its terminal event, or fails,
// ends with an error event in the client's protocol.
import type { GatewayRequestState } from '../gateway-request.ts';
import type { ApiSurface } from '../../core/protocol/error-bodies.ts';
import type { RelayOptions } from './relay-response.ts';
import { streamErrorEvent } from './stream-error-event.ts';
import { StreamObserver } from './stream-observer.ts';
import type { StreamSteps } from './write-stream.ts';

export function passThroughSteps(surface: ApiSurface, state: GatewayRequestState, options: RelayOptions): StreamSteps {
  const observer = new StreamObserver(surface, state, options.stripUsageChunk);
  const cutShort = (message: string) => {
    state.outcomeStatus = 502;
    state.outcome = 'upstream_cut';
    return streamErrorEvent(surface, message);
  };
  return {
    chunk: (chunk) => observer.take(chunk),
    end() {
      const last = observer.end();
      if (observer.finished) return last;
      return last + cutShort(`The upstream provider "${options.providerName}" closed the stream before it was complete; the answer is cut off. Retry the request.`);
    },
    failure: (error) =>
      cutShort(`The upstream provider "${options.providerName}" failed during the stream (${(error as Error)?.message ?? 'stream error'}); the answer is incomplete. Retry the request.`),
  };
}
