// The one server-sent-events encoder and parser shared by the gateway, the tools and the tests.

export interface SseEvent {
  event?: string;
  data: string;
  /** The exact text of the event as received, including its terminating blank line. */
  raw: string;
  /** A block of comment lines only (keep-alives such as `: ping`): no data, but part of the stream. */
  comment?: boolean;
}

export function encodeSse(data: unknown, event?: string): string {
  // JSON text has no raw CR or LF (they are escaped), so an object is always one data line.
  const lines = typeof data === 'string' ? data.split('\n').map((line) => `data: ${line}`).join('\n') : `data: ${JSON.stringify(data)}`;
  return event ? `event: ${event}\n${lines}\n\n` : `${lines}\n\n`;
}

/**
 * Incremental parser: feed it bytes as they arrive; multi-byte characters split
 * across chunks are kept intact by the streaming decoder.
 */
export class SseParser {
  private readonly decoder = new TextDecoder('utf-8');
  private buffer = '';

  push(chunk: Uint8Array | string): SseEvent[] {
    this.buffer += typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    return this.drain();
  }

  /** Flushes the decoder; a final event without its blank line is still returned. */
  end(): SseEvent[] {
    this.buffer += this.decoder.decode();
    const events = this.drain();
    if (this.buffer.trim() !== '') {
      const last = parseBlock(this.buffer);
      if (last) events.push(last);
    }
    this.buffer = '';
    return events;
  }

  private drain(): SseEvent[] {
    const events: SseEvent[] = [];
    for (;;) {
      const match = /\r\n\r\n|\n\n|\r\r/.exec(this.buffer);
      if (!match) break;
      const end = match.index + match[0].length;
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end);
      const event = parseBlock(block);
      if (event) events.push(event);
    }
    return events;
  }
}

function parseBlock(block: string): SseEvent | undefined {
  let event: string | undefined;
  const data: string[] = [];
  let sawField = false;
  for (const line of block.split(/\r\n|\n|\r/)) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else continue;
    sawField = true;
  }
  if (!sawField) return block.trim() === '' ? undefined : { data: '', raw: block, comment: true };
  return { event, data: data.join('\n'), raw: block };
}
