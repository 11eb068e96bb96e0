import type { IncomingMessage, ServerResponse } from 'node:http';
import { StringDecoder } from 'node:string_decoder';
import type { StreamHooks } from '../transforms/pipeline.ts';

export interface RelayStats {
  bytesIn: number;
  events: number;
}

/**
 * Relays an SSE body to the client with backpressure. Text is decoded with one streaming decoder
 * for the whole response, so a character split across network chunks is never mangled.
 *
 * Observer mode (hooks only read): upstream bytes are written untouched and parsed on the side.
 * Rewrite mode (a hook may change events): complete lines are re-emitted, edited ones re-encoded.
 */
export function relaySse(upstream: IncomingMessage, res: ServerResponse, hooks: StreamHooks): Promise<RelayStats> {
  const decoder = new StringDecoder('utf8');
  const stats: RelayStats = { bytesIn: 0, events: 0 };
  let pending = '';
  let eventName: string | null = null;

  function processLine(line: string, hasNewline: boolean): string {
    const carriage = line.endsWith('\r');
    const content = carriage ? line.slice(0, -1) : line;
    const keep = hasNewline ? `${line}\n` : line;
    if (content === '') {
      eventName = null;
      return keep;
    }
    if (content.startsWith('event:')) {
      eventName = content.slice(6).trim();
      return keep;
    }
    if (!content.startsWith('data:')) return keep;
    const payload = content.slice(content.startsWith('data: ') ? 6 : 5);
    if (payload === '[DONE]' || !hooks.wants(eventName)) return keep;
    let event: unknown;
    try {
      event = JSON.parse(payload);
    } catch {
      return keep;
    }
    if (typeof event !== 'object' || event === null || Array.isArray(event)) return keep;
    stats.events += 1;
    const result = hooks.onEvent(event as Record<string, unknown>, eventName);
    if (result === undefined) return keep;
    if (result === null) return '';
    return `data: ${JSON.stringify(result)}${carriage ? '\r' : ''}${hasNewline ? '\n' : ''}`;
  }

  function processText(text: string): string {
    pending += text;
    const lastNewline = pending.lastIndexOf('\n');
    if (lastNewline < 0) return '';
    const complete = pending.slice(0, lastNewline);
    pending = pending.slice(lastNewline + 1);
    let out = '';
    for (const line of complete.split('\n')) {
      const emitted = processLine(line, true);
      if (hooks.rewrites) out += emitted;
    }
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
        write(processText(decoder.write(chunk)));
      } else {
        // Forward first: observers must never delay the user's tokens.
        write(chunk);
        processText(decoder.write(chunk));
      }
    });
    let ended = false;
    upstream.once('end', () => {
      ended = true;
      const tail = processText(decoder.end()) + (pending === '' ? '' : processLine(pending, false));
      pending = '';
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
