// Before an answer is committed to the client, the gateway makes sure the upstream really is
// answering: a JSON body is read whole, a stream until its first chunk. A failure up to that point
// has sent nothing to the client yet, so the request may still go to another provider.
import { Readable } from 'node:stream';
import type { ProviderResponse } from '../providers/provider.ts';
import { UpstreamError } from '../providers/provider.ts';
import { readUpstreamBody, type UpstreamTiming } from './relay-response.ts';
import type { RequestAbort } from './request-abort.ts';
import { settleOnEvents } from './stream-events.ts';

const EMPTY: AsyncIterable<Uint8Array> = { async *[Symbol.asyncIterator]() {} };

/**
 * Resolves once the stream has a first chunk (put back, the stream left paused) or has ended;
 * rejects if it fails first. No chunk is consumed and nothing is wrapped.
 */
function firstChunk(body: Readable): Promise<void> {
  return settleOnEvents(
    body,
    (chunk) => {
      body.pause();
      body.unshift(chunk);
      return { value: undefined };
    },
    () => undefined,
  );
}

/** The same for any other async iterable: the first chunk is read and replayed. */
async function firstOfIterable(body: AsyncIterable<Uint8Array>): Promise<AsyncIterable<Uint8Array>> {
  const iterator = body[Symbol.asyncIterator]();
  const first = await iterator.next();
  return Readable.from(
    (async function* replay() {
      if (!first.done) yield first.value;
      try {
        for (;;) {
          const next = await iterator.next();
          if (next.done) return;
          yield next.value;
        }
      } finally {
        // The client left or the relay stopped early: release the upstream body.
        await iterator.return?.();
      }
    })(),
    { objectMode: false },
  );
}

/** The response with its body already (partly) read; throws UpstreamError when reading failed. */
export async function settleAnswer(response: ProviderResponse, providerName: string, abort: RequestAbort, timing: UpstreamTiming): Promise<ProviderResponse> {
  const isStream = (response.headers['content-type'] ?? '').includes('text/event-stream');
  if (!isStream) {
    response.bytes = await readUpstreamBody(response.body, providerName, abort, timing);
    response.body = EMPTY;
    return response;
  }
  const started = performance.now();
  try {
    if (response.body instanceof Readable) {
      await firstChunk(response.body);
      return response;
    }
    return { ...response, body: await firstOfIterable(response.body) };
  } catch (error) {
    if (abort.aborted) throw error;
    const timedOut = (error as { code?: string }).code === 'UND_ERR_BODY_TIMEOUT';
    throw new UpstreamError(timedOut ? 'timeout' : 'unreachable', providerName, `the stream failed before its first byte: ${(error as Error).message}`);
  } finally {
    timing.upstreamMs += performance.now() - started;
  }
}
