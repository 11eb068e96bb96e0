// Writes a relayed stream straight to the client's response: the reply is hijacked once its status
// and headers are known (onResponse hooks still run at the end), each upstream chunk goes through
// `steps` and is written with backpressure, and no stream sits in between (no Transform, no pipe,
// no promise per chunk). A client that leaves releases the upstream; an upstream that fails
// mid-stream gets the relay's last words (an error event) and the response ends cleanly. What the
// chunks of one read become is written at once, with the stream's end when it came in the same read.
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
  /**
   * What the steps made of the chunks of one network read, written together once the read is over:
   * one `write` (one chunk frame, a few buffers for the socket) however many events the read held.
   * node frames every write of a chunked response on its own, corked or not.
   */
  let pending: (Buffer | string)[] = [];
  let flushQueued = false;
  const takePending = (): Buffer | string => {
    const parts = pending;
    pending = [];
    if (parts.length === 1) return parts[0]!;
    if (parts.every((part) => typeof part === 'string')) return (parts as string[]).join('');
    return Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : part)));
  };
  const finish = (last: string) => {
    if (done) return;
    done = true;
    upstream.off('data', onData);
    if (!upstream.readableEnded) upstream.destroy();
    if (res.writableEnded || res.destroyed) return;
    if (last.length > 0) pending.push(last);
    // The stream's last words leave with what this read brought, in one call, once the journal has
    // the usage when something waits for it.
    const end = () => {
      if (res.writableEnded || res.destroyed) return;
      const out = takePending();
      if (out.length > 0) res.end(out);
      else res.end();
    };
    if (beforeEnd === undefined) end();
    else beforeEnd(end);
  };
  const resume = () => upstream.resume();
  // The output of one network read is written in a microtask, which runs after the ticks queued
  // meanwhile, among them the upstream's 'end' when the read held the last bytes: then it leaves
  // with the end of the response (see finish).
  const flush = () => {
    flushQueued = false;
    if (done || pending.length === 0) return;
    if (!res.write(takePending())) {
      upstream.pause();
      res.once('drain', resume);
    }
  };
  const onData = (chunk: Buffer) => {
    let out: Buffer | string;
    try {
      out = steps.chunk(chunk);
    } catch (error) {
      finish(steps.failure(error));
      return;
    }
    if (out.length > 0) {
      pending.push(out);
      if (!flushQueued) {
        flushQueued = true;
        queueMicrotask(flush);
      }
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
