// Writes a relayed stream straight to the client's response: the reply is hijacked once its status
// and headers are known (onResponse hooks still run at the end), each upstream chunk goes through
// `steps` and is written with backpressure, and no stream sits in between (no Transform, no pipe,
// no promise per chunk). A client that leaves releases the upstream; an upstream that fails
// mid-stream gets the relay's last words (an error event) and the response ends cleanly. Chunks that
// arrive together are written together, with the stream's end when it came in the same read.
import { Readable } from 'node:stream';
import type { ApiReply } from '../api-exchange.ts';
import type { RequestAbort } from './request-abort.ts';

export interface StreamSteps {
  /** What to send for one upstream chunk (may be empty). */
  chunk(chunk: Buffer): Buffer | string;
  /** What to send once the upstream body ended. */
  end(): string;
  /** What to send when the upstream failed (or a step threw) mid-stream. */
  failure(error: unknown): string;
  /** Set by a step that decided the stream is over (the rest is not wanted): the upstream is released. */
  stopped?: boolean;
}

/**
 * `beforeEnd` runs once the stream's last words are known (the request's usage goes to the journal
 * then) and calls back the function that writes them and ends the response, once the journal line is
 * written.
 */
export function writeStream(
  reply: ApiReply,
  status: number,
  headers: Record<string, string>,
  body: AsyncIterable<Uint8Array>,
  abort: RequestAbort,
  steps: StreamSteps,
  beforeEnd?: (end: () => void) => void,
): ApiReply {
  const res = reply.raw;
  const upstream = body instanceof Readable ? body : Readable.from(body, { objectMode: false });
  reply.hijack();
  for (const name in headers) reply.header(name, headers[name]!);
  // The reply knows the status too: usage, metrics and the log line read it from there.
  reply.code(status);
  res.writeHead(status, reply.getHeaders() as Record<string, string>);

  let done = false;
  const finish = (last: string) => {
    if (done) return;
    done = true;
    upstream.off('data', onData);
    if (!upstream.readableEnded) upstream.destroy();
    if (res.writableEnded || res.destroyed) return;
    const end = () => {
      if (!res.writableEnded && !res.destroyed) {
        if (last.length > 0) res.write(last);
        res.end();
      }
      if (holding) {
        holding = false;
        res.uncork();
      }
    };
    if (beforeEnd === undefined) {
      end();
      return;
    }
    // What this read corked leaves with the end, once the journal has the usage: one system call still.
    holding = corked;
    beforeEnd(end);
  };
  const resume = () => upstream.resume();
  // What one network read brings leaves in one system call, the end of the stream included: the
  // socket is corked at the first chunk and uncorked in a microtask, which runs after the ticks
  // queued meanwhile, among them the upstream's 'end' when the read held the last bytes (res.end()
  // then sends the chunk and the closing frame together). node alone would uncork on the next tick,
  // before the 'end', and write the closing frame in a second call.
  let corked = false;
  /** The end waits for the journal: the microtask leaves the socket corked for it. */
  let holding = false;
  const uncork = () => {
    corked = false;
    if (!holding) res.uncork();
  };
  const onData = (chunk: Buffer) => {
    if (!corked) {
      corked = true;
      res.cork();
      queueMicrotask(uncork);
    }
    let out: Buffer | string;
    try {
      out = steps.chunk(chunk);
    } catch (error) {
      finish(steps.failure(error));
      return;
    }
    if (out.length > 0 && !res.write(out)) {
      upstream.pause();
      res.once('drain', resume);
    }
    if (steps.stopped) finish('');
  };
  upstream.on('data', onData);
  upstream.once('end', () => {
    let last: string;
    try {
      last = steps.end();
    } catch (error) {
      last = steps.failure(error);
    }
    finish(last);
  });
  upstream.once('error', (error: Error) => {
    if (done) return;
    // The client left (its response closed and aborted the upstream call): nobody to tell.
    if (abort.aborted || res.destroyed) {
      done = true;
      res.destroy();
      return;
    }
    finish(steps.failure(error));
  });
  res.once('close', () => {
    if (!upstream.readableEnded) upstream.destroy();
  });
  // settleAnswer left the body paused with its first chunk put back: a 'data' listener alone does
  // not restart a stream paused on purpose.
  upstream.resume();
  return reply;
}
