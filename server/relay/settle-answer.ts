// Before an answer is committed to the client, the gateway makes sure the upstream really is
// answering: a JSON body is read whole, a stream until its first chunk. A failure up to that point
// has sent nothing to the client yet, so the request may still go to another provider.
import type { ProviderResponse } from '../providers/provider.ts';
import { UpstreamError } from '../providers/provider.ts';
import { readUpstreamBody, type UpstreamTiming } from './relay-response.ts';

async function* once(bytes: Buffer): AsyncGenerator<Uint8Array> {
  yield bytes;
}

async function* replay(first: Uint8Array[], rest: AsyncIterator<Uint8Array>): AsyncGenerator<Uint8Array> {
  for (const chunk of first) yield chunk;
  try {
    for (;;) {
      const next = await rest.next();
      if (next.done) return;
      yield next.value;
    }
  } finally {
    // The client left or the relay stopped early: release the upstream body.
    await rest.return?.();
  }
}

/** The response with its body already (partly) read; throws UpstreamError when reading failed. */
export async function settleAnswer(response: ProviderResponse, providerName: string, abort: AbortController, timing: UpstreamTiming): Promise<ProviderResponse> {
  const isStream = (response.headers['content-type'] ?? '').includes('text/event-stream');
  if (!isStream) {
    const bytes = await readUpstreamBody(response.body, providerName, abort, timing);
    return { ...response, body: once(bytes) };
  }
  const iterator = response.body[Symbol.asyncIterator]();
  const started = performance.now();
  try {
    const first = await iterator.next();
    return { ...response, body: replay(first.done ? [] : [first.value], iterator) };
  } catch (error) {
    if (abort.signal.aborted) throw error;
    const timedOut = (error as { code?: string }).code === 'UND_ERR_BODY_TIMEOUT';
    throw new UpstreamError(timedOut ? 'timeout' : 'unreachable', providerName, `the stream failed before its first byte: ${(error as Error).message}`);
  } finally {
    timing.upstreamMs += performance.now() - started;
  }
}
