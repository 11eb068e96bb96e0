// A same-protocol stream relayed to the client: the upstream body piped through one synchronous
// Transform (no promise per chunk), each chunk forwarded as received while a StreamObserver reads
// usage on the side. A stream that ends before its terminal event, or fails, ends with an error
// event in the client's protocol; a client that leaves aborts the upstream (api-hooks).
import { Transform } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { ApiSurface } from '../../core/protocol/error-bodies.ts';
import { pipeUpstream } from './pipe-upstream.ts';
import type { RelayOptions } from './relay-response.ts';
import { streamErrorEvent } from './stream-error-event.ts';
import { StreamObserver } from './stream-observer.ts';

export function passThroughStream(surface: ApiSurface, body: AsyncIterable<Uint8Array>, state: FastifyRequest['gateway'], options: RelayOptions): Transform {
  const observer = new StreamObserver(surface, state, options.stripUsageChunk);
  let failed = false;
  const cutShort = (message: string) => {
    failed = true;
    state.outcomeStatus = 502;
    state.outcome = 'upstream_cut';
    return streamErrorEvent(surface, message);
  };
  const out = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      // After a failure only the gateway's own error event is written here.
      if (failed) return callback(null, chunk);
      const sent = observer.take(chunk);
      callback(null, sent.length === 0 ? undefined : sent);
    },
    flush(callback) {
      if (failed) return callback();
      const last = observer.end();
      if (last) this.push(last);
      if (!observer.finished) {
        this.push(cutShort(`The upstream provider "${options.providerName}" closed the stream before it was complete; the answer is cut off. Retry the request.`));
      }
      callback();
    },
  });
  pipeUpstream(body, out, options.abort, (error) =>
    cutShort(`The upstream provider "${options.providerName}" failed during the stream (${error?.message ?? 'stream error'}); the answer is incomplete. Retry the request.`),
  );
  return out;
}
