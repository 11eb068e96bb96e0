// Wires an upstream body into the Transform that relays it: piped with backpressure, released when
// the client's side closes first, and on a failure mid-stream either torn down (the client left, so
// the abort caused it) or ended with the text `onFailure` gives (an error event for the client).
import { Readable, type Transform } from 'node:stream';

export function pipeUpstream(body: AsyncIterable<Uint8Array>, out: Transform, abort: AbortController, onFailure: (error: Error) => string | undefined): void {
  const upstream = body instanceof Readable ? body : Readable.from(body, { objectMode: false });
  upstream.once('error', (error: Error) => {
    upstream.unpipe(out);
    // Already ended by the relay itself (it stopped the upstream after a failure of its own).
    if (out.writableEnded) return;
    if (abort.signal.aborted) {
      out.destroy();
      return;
    }
    const last = onFailure(error);
    if (last === undefined) out.end();
    else out.end(last);
  });
  // The client went away (or the reply was torn down): release the upstream body.
  out.once('close', () => {
    if (!upstream.readableEnded) upstream.destroy();
  });
  upstream.pipe(out);
}
