import type { IncomingMessage, ServerResponse } from 'node:http';
import { replaceSseData, SseEventTooLargeError, SseParser, type SseEvent } from '../../../core/protocol/sse.ts';
import type { StreamHooks } from '../transforms/pipeline.ts';

export interface RelayStats {
  bytesIn: number;
  events: number;
  /** Set when the relay ended the stream itself: one upstream event grew past the bound. */
  cut?: 'event_too_large';
}

/** The messages protocol's own error event, so the client reports a failure instead of hanging. */
function overloadEvent(limit: number): string {
  const data = { type: 'error', error: { type: 'api_error', message: `cache-fix-proxy: an upstream event grew past ${limit} bytes without ending; the stream was closed` } };
  return `event: error\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * Relays an SSE body to the client with backpressure, read with the project's one SSE parser: one
 * streaming decoder for the whole response, so a character split across network chunks is never
 * mangled.
 *
 * Observer mode (hooks only read): upstream bytes are written untouched, first, and parsed on the side.
 * Rewrite mode (a hook may change events): each event is written once it is complete, with its
 * received text unless a hook edited it (then only its data is re-encoded) or dropped it (then
 * nothing of it is written).
 */
export function relaySse(upstream: IncomingMessage, res: ServerResponse, hooks: StreamHooks, maxEventBytes: number): Promise<RelayStats> {
  // Characters, not bytes: a character is at least one byte, so the text stays within the bound.
  const parser = new SseParser({ maxEventChars: maxEventBytes });
  const stats: RelayStats = { bytesIn: 0, events: 0 };

  /** The text to send for one event in rewrite mode. */
  function processEvent(e: SseEvent): string {
    if (e.comment || e.data === '[DONE]') return e.raw;
    const eventName = e.event ?? null;
    if (!hooks.wants(eventName)) return e.raw;
    let event: unknown;
    try {
      event = JSON.parse(e.data);
    } catch {
      return e.raw;
    }
    if (typeof event !== 'object' || event === null || Array.isArray(event)) return e.raw;
    stats.events += 1;
    const result = hooks.onEvent(event as Record<string, unknown>, eventName);
    if (result === undefined) return e.raw;
    if (result === null) return '';
    return replaceSseData(e.raw, JSON.stringify(result));
  }

  function processEvents(events: SseEvent[]): string {
    let out = '';
    for (const e of events) out += processEvent(e);
    return out;
  }

  return new Promise((resolve, reject) => {
    let settled = false;
    const write = (data: string | Buffer): void => {
      if (data.length === 0 || settled) return;
      if (!res.write(data)) {
        upstream.pause();
        res.once('drain', () => upstream.resume());
      }
    };
    // Nothing thrown inside a stream listener may escape: it would be uncaught and end the process.
    const fail = (error: unknown): void => {
      if (settled) return;
      if (error instanceof SseEventTooLargeError) {
        // In observer mode the client already has the start of the oversized event: end it first.
        write(`${hooks.rewrites ? '' : '\n\n'}${overloadEvent(maxEventBytes)}`);
        settled = true;
        upstream.destroy();
        res.end();
        resolve({ ...stats, cut: 'event_too_large' });
        return;
      }
      settled = true;
      upstream.destroy();
      reject(error);
    };
    upstream.on('data', (chunk: Buffer) => {
      if (settled) return;
      try {
        stats.bytesIn += chunk.length;
        if (hooks.rewrites) {
          write(processEvents(parser.push(chunk)));
        } else {
          // Forward first: observers must never delay the user's tokens.
          write(chunk);
          processEvents(parser.push(chunk));
        }
      } catch (error) {
        fail(error);
      }
    });
    upstream.once('end', () => {
      if (settled) return;
      try {
        const tail = processEvents(parser.end());
        if (hooks.rewrites) write(tail);
      } catch (error) {
        fail(error);
        return;
      }
      settled = true;
      res.end();
      resolve(stats);
    });
    upstream.once('error', fail);
    upstream.once('close', () => {
      if (!settled) fail(new Error('upstream closed the stream before it ended'));
    });
  });
}
