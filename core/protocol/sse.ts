// The one server-sent-events encoder and parser shared by the gateway, the proxy, the tools and the tests.

export interface SseEvent {
  event?: string;
  data: string;
  /**
   * The exact text of the event as received, including its terminating blank line (and any stray
   * blank lines before it), so the raw texts of a stream's events put together give the stream back.
   */
  raw: string;
  /** A block of comment lines only (keep-alives such as `: ping`): no data, but part of the stream. */
  comment?: boolean;
}

export function encodeSse(data: unknown, event?: string): string {
  // JSON text has no raw CR or LF (they are escaped), so an object is always one data line.
  const lines =
    typeof data !== 'string' ? `data: ${JSON.stringify(data)}` : data.indexOf('\n') === -1 ? `data: ${data}` : data.split('\n').map((line) => `data: ${line}`).join('\n');
  return event ? `event: ${event}\n${lines}\n\n` : `${lines}\n\n`;
}

/**
 * An event's raw text with new data: its other lines (event, id, retry, comments) and its line
 * endings stay as they were, so an edited event differs from the received one in its data only.
 */
export function replaceSseData(raw: string, data: string): string {
  let out = '';
  let blank = '';
  let replaced = false;
  for (const line of raw.match(/[^\r\n]*(?:\r\n|\n|\r|$)/g)!) {
    if (line === '') continue;
    const content = line.replace(/\r?\n$|\r$/, '');
    if (content === 'data' || content.startsWith('data:')) {
      if (!replaced) out += blank + dataLines(data, line.slice(content.length));
      blank = '';
      replaced = true;
    } else if (content === '') {
      blank += line;
    } else {
      out += blank + line;
      blank = '';
    }
  }
  // An event without data (comments only) gets its data before the terminating blank line.
  return replaced ? out + blank : out + dataLines(data, '\n') + (blank || '\n');
}

function dataLines(data: string, ending: string): string {
  const parts = data.split('\n');
  return parts.map((part, i) => `data: ${part}${i < parts.length - 1 ? ending || '\n' : ending}`).join('');
}

/** Thrown by SseParser.push when one event grows past the parser's bound without ending. */
export class SseEventTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`one server-sent event grew past ${limit} characters without ending`);
    this.name = 'SseEventTooLargeError';
  }
}

export interface SseParserOptions {
  /**
   * Longest text one event may reach before its blank line (default: no bound). A stream that never
   * ends its event would otherwise grow the pending text until joining it fails.
   */
  maxEventChars?: number;
}

/**
 * Incremental parser: feed it bytes as they arrive; multi-byte characters split
 * across chunks are kept intact by the streaming decoder. A byte order mark at the
 * start of the stream is dropped.
 */
export class SseParser {
  private readonly maxEventChars: number;
  /** Characters held in `pending`. */
  private pendingChars = 0;

  constructor(options: SseParserOptions = {}) {
    this.maxEventChars = options.maxEventChars ?? Infinity;
  }

  // The byte order mark is dropped by push() at the start of the stream only; the decoder may first
  // see bytes in the middle of one (a Buffer's first chunks are decoded without it).
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  /**
   * Text after the last complete event, in the pieces it came in (it holds no blank line): a long
   * event arriving in many chunks is joined once, not copied again with every chunk.
   */
  private pending: string[] = [];
  /** The last 3 characters of the pending text: a blank line the next chunk completes starts there. */
  private tail = '';
  /** Stray blank lines, kept for the next event's raw text. */
  private blank = '';
  private started = false;
  /** Whether the last chunk ended inside a UTF-8 character (the decoder holds its first bytes). */
  private decoderHolds = false;

  push(chunk: Uint8Array | string): SseEvent[] {
    let text = typeof chunk === 'string' ? chunk : this.decode(chunk);
    if (text === '') return [];
    if (!this.started) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (this.pending.length > 0 && !BLANK_LINE.test(this.tail + text)) {
      this.pending.push(text);
      this.pendingChars += text.length;
      this.tail = (this.tail + text).slice(-3);
      this.checkBound();
      return [];
    }
    this.pending.push(text);
    const events = this.drain();
    this.checkBound();
    return events;
  }

  private checkBound(): void {
    // Stray blank lines are held for the next event's raw text, so they count too.
    if (this.pendingChars + this.blank.length <= this.maxEventChars) return;
    // What was held is dropped: the parser is not used again after this.
    this.pending = [];
    this.blank = '';
    this.pendingChars = 0;
    throw new SseEventTooLargeError(this.maxEventChars);
  }

  /**
   * Bytes to text. A Node Buffer that ends on an ASCII byte ends on a character boundary: unless the
   * decoder holds the start of a character from the chunk before, it is decoded in one call (the
   * streaming decoder costs several times more); the browser always takes the streaming decoder.
   */
  private decode(chunk: Uint8Array): string {
    if (chunk.length === 0) return '';
    const endsOnBoundary = chunk[chunk.length - 1]! < 0x80;
    if (!this.decoderHolds && endsOnBoundary && typeof Buffer !== 'undefined' && Buffer.isBuffer(chunk)) return chunk.toString('utf8');
    this.decoderHolds = !endsOnBoundary;
    return this.decoder.decode(chunk, { stream: true });
  }

  /**
   * Flushes the decoder; a final event without its blank line is still returned. Blank lines after
   * the last event are not part of any event.
   */
  end(): SseEvent[] {
    const flushed = this.decoder.decode();
    if (flushed !== '') this.pending.push(flushed);
    const events = this.drain(true);
    const rest = this.pending.join('');
    if (rest.trim() !== '') {
      const last = parseBlock(this.blank + rest);
      if (last) events.push(last);
    }
    this.pending = [];
    this.pendingChars = 0;
    this.tail = '';
    this.blank = '';
    return events;
  }

  private drain(final = false): SseEvent[] {
    const events: SseEvent[] = [];
    const buffer = this.pending.length === 1 ? this.pending[0]! : this.pending.join('');
    SEPARATORS.lastIndex = 0;
    let start = 0;
    for (let match = SEPARATORS.exec(buffer); match; match = SEPARATORS.exec(buffer)) {
      const end = match.index + match[0].length;
      // A CR ending the text so far may be the start of a CRLF: wait for it, so that a CRLF stream's
      // event keeps its whole blank line (a CR-only stream's CR CR needs no wait).
      if (!final && end === buffer.length && match[0] !== '\r\r' && match[0].endsWith('\r')) break;
      const block = buffer.slice(start, end);
      const event = parseBlock(this.blank + block);
      if (event) {
        events.push(event);
        this.blank = '';
      } else {
        this.blank += block;
      }
      start = end;
    }
    const rest = start > 0 ? buffer.slice(start) : buffer;
    this.pending = rest === '' ? [] : [rest];
    this.pendingChars = rest.length;
    this.tail = rest.slice(-3);
    return events;
  }
}

/**
 * The end of an event: a line ending (LF, CRLF or CR) right after another one. An LF right after a
 * CR is the CR's own (CRLF), so only a CR may follow a lone CR.
 */
const BLANK_LINE = /(?:\r\n|\n)(?:\r\n|\n|\r)|\r\r/;
const SEPARATORS = new RegExp(BLANK_LINE.source, 'g');

/** Whether every CR of the text starts a CRLF (the Gemini API's line endings), so lines end at LF. */
function crOnlyInCrlf(text: string): boolean {
  for (let i = text.indexOf('\r'); i !== -1; i = text.indexOf('\r', i + 2)) {
    if (text.charCodeAt(i + 1) !== LF) return false;
  }
  return true;
}

function parseBlock(block: string): SseEvent | undefined {
  const crlf = block.indexOf('\r') !== -1;
  if (crlf && !crOnlyInCrlf(block)) return parseBlockAnyEndings(block);
  // LF or CRLF line endings (nearly every stream): lines found with indexOf, no split, no regex.
  let event: string | undefined;
  let data: string | undefined;
  let moreData: string[] | undefined;
  let sawField = false;
  const length = block.length;
  for (let start = 0; start < length; ) {
    let next = block.indexOf('\n', start);
    if (next === -1) next = length;
    // The line's content ends before its CR, if it has one.
    const end = crlf && next > start && block.charCodeAt(next - 1) === CR ? next - 1 : next;
    if (end > start && block.charCodeAt(start) !== COLON) {
      const colon = block.indexOf(':', start);
      const fieldEnd = colon === -1 || colon > end ? end : colon;
      let valueStart = fieldEnd === end ? end : fieldEnd + 1;
      if (valueStart < end && block.charCodeAt(valueStart) === SPACE) valueStart += 1;
      const fieldLength = fieldEnd - start;
      if (fieldLength === 4 && block.startsWith('data', start)) {
        const value = block.slice(valueStart, end);
        if (data === undefined) data = value;
        else (moreData ??= [data]).push(value);
        sawField = true;
      } else if (fieldLength === 5 && block.startsWith('event', start)) {
        event = block.slice(valueStart, end);
        sawField = true;
      }
    }
    start = next + 1;
  }
  if (!sawField) return block.trim() === '' ? undefined : { data: '', raw: block, comment: true };
  return { event, data: moreData ? moreData.join('\n') : (data ?? ''), raw: block };
}

const COLON = 0x3a;
const SPACE = 0x20;
const CR = 0x0d;
const LF = 0x0a;

function parseBlockAnyEndings(block: string): SseEvent | undefined {
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
