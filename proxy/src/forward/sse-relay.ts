import type { IncomingMessage, ServerResponse } from 'node:http';
import { replaceSseData, SseParser, type SseEvent } from '../../../core/protocol/sse.ts';
import type { StreamHooks } from '../transforms/pipeline.ts';

export interface RelayStats {
  bytesIn: number;
  events: number;
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
export function relaySse(upstream: IncomingMessage, res: ServerResponse, hooks: StreamHooks): Promise<RelayStats> {
  const parser = new SseParser();
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
    const write = (data: string | Buffer): void => {
      if (data.length === 0) return;
      if (!res.write(data)) {
        upstream.pause();
        res.once('drain', () => upstream.resume());
      }
    };
    upstream.on('data', (chunk: Buffer) => {
      stats.bytesIn += chunk.length;
      if (hooks.rewrites) {
        write(processEvents(parser.push(chunk)));
      } else {
        // Forward first: observers must never delay the user's tokens.
        write(chunk);
        processEvents(parser.push(chunk));
      }
    });
    let ended = false;
    upstream.once('end', () => {
      ended = true;
      const tail = processEvents(parser.end());
      if (hooks.rewrites) write(tail);
      res.end();
      resolve(stats);
    });
    upstream.once('error', reject);
    upstream.once('close', () => {
      if (!ended) reject(new Error('upstream closed the stream before it ended'));
    });
  });
}
