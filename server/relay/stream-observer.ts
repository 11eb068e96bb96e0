// Watches a same-protocol stream on its way to the client without slowing it: usage, whether the
// stream reached its terminal event, and the generated text relayed (for estimates). Text is decoded
// once per chunk; only complete events are looked at, and only the few that can matter (usage,
// terminal and error events) are parsed into events, by the project's one SSE parser. Memory is
// the unfinished event at the end of the last chunk, whatever the stream's length.
import { StringDecoder } from 'node:string_decoder';
import type { ApiSurface } from '../../core/protocol/error-bodies.ts';
import { RESPONSES_TERMINAL_EVENTS } from '../../core/protocol/responses-types.ts';
import { SseParser, type SseEvent } from '../../core/protocol/sse.ts';
import { HAS_USAGE_OBJECT, isUsageOnlyChunk, StreamUsage, type TokenCounts } from '../usage/usage-extractor.ts';

/** Text whose events may carry usage, end the stream or report an error: these are parsed. */
const MAY_MATTER = /"usage"\s*:\s*\{|\[DONE\]|message_stop|error|response\.(?:completed|incomplete|failed)|"usageMetadata"|"finishReason"/;

/** A Gemini stream's last chunk names why the generation ended; an error chunk ends it too. */
const GEMINI_END_DATA = /"finishReason"\s*:|^\{\s*"error"\s*:/;

/** A Responses stream ends with response.completed, .incomplete or .failed (named by `event:`, or first in the data). */
const RESPONSES_END_DATA = /^\{"type":"response\.(completed|incomplete|failed)"/;

function isTerminal(e: SseEvent, surface: ApiSurface): boolean {
  if (surface === 'gemini') return GEMINI_END_DATA.test(e.data);
  if (e.data === '[DONE]' || e.event === 'message_stop' || e.event === 'error') return true;
  return e.event === undefined ? RESPONSES_END_DATA.test(e.data) : RESPONSES_TERMINAL_EVENTS.has(e.event);
}

/**
 * The index just after the last blank line (`\n\n`, `\r\n\r\n` or `\r\r`) at or after `from`, or -1.
 * `crSeen`: whether the stream has used CR line endings at all (if not, only `\n\n` is looked for).
 */
function lastEventEnd(text: string, from: number, crSeen: boolean): number {
  if (text.endsWith('\n\n')) return text.length;
  const lf = text.lastIndexOf('\n\n');
  if (!crSeen) return lf !== -1 && lf + 2 > from ? lf + 2 : -1;
  const crlf = text.lastIndexOf('\n\r\n');
  const cr = text.lastIndexOf('\r\r');
  const end = Math.max(lf === -1 ? -1 : lf + 2, crlf === -1 ? -1 : crlf + 3, cr === -1 ? -1 : cr + 2);
  return end > from ? end : -1;
}

/** Where the event holding the character at `at` starts: just after the blank line before it, or 0. */
function eventStartBefore(text: string, at: number, crSeen: boolean): number {
  if (at === 0) return 0;
  const lf = text.lastIndexOf('\n\n', at);
  if (!crSeen) return lf === -1 ? 0 : lf + 2;
  const crlf = text.lastIndexOf('\n\r\n', at);
  const cr = text.lastIndexOf('\r\r', at);
  const start = Math.max(lf === -1 ? 0 : lf + 2, crlf === -1 ? 0 : crlf + 3, cr === -1 ? 0 : cr + 2);
  return start <= at ? start : 0;
}

export class StreamObserver {
  /** Made at the first chunk that ends inside a character (most streams never need one). */
  private decoder: StringDecoder | undefined = undefined;
  private readonly usage: StreamUsage;
  /**
   * The start of an event whose blank line has not arrived yet, in pieces (joined once it is
   * complete), so a long event costs its length once, not once per chunk.
   */
  private pending: string[] = [];
  /** The last few characters of `pending`, where a blank line may begin. */
  private pendingTail = '';
  /** Whether a chunk ended inside a UTF-8 character: the decoder holds its first bytes. */
  private decoderHolds = false;
  /** Whether any CR has been seen (most streams use LF only: blank lines are then only `\n\n`). */
  private crSeen = false;
  /** True once the stream's terminal event ([DONE], message_stop, error, a Responses end) went by. */
  finished = false;

  /**
   * @param strip drop the usage-only chunk the gateway asked for on the client's behalf; the
   *   output is then whole events (what `take` returns), otherwise each chunk as received.
   */
  constructor(
    private readonly surface: ApiSurface,
    target: TokenCounts & { generatedChars?: number },
    private readonly strip: boolean,
  ) {
    this.usage = new StreamUsage(surface, target);
  }

  /** Observes one upstream chunk; returns what to send on: the chunk itself unless stripping. */
  take(chunk: Buffer): Buffer | string {
    // A chunk that ends on an ASCII byte ends on a character boundary: decoded in one go, unless the
    // decoder still holds the start of a character from the chunk before.
    const endsOnBoundary = chunk.length > 0 && chunk[chunk.length - 1]! < 0x80;
    const fresh = !this.decoderHolds && endsOnBoundary ? chunk.toString('utf8') : (this.decoder ??= new StringDecoder('utf8')).write(chunk);
    if (chunk.length > 0) this.decoderHolds = !endsOnBoundary;
    if (!this.crSeen && fresh.includes('\r')) this.crSeen = true;
    // Only the new text (and the few characters before it) can hold the blank line that ends an event.
    const probe = this.pendingTail + fresh;
    const endInProbe = lastEventEnd(probe, this.pendingTail.length, this.crSeen);
    if (endInProbe === -1) {
      this.pending.push(fresh);
      this.pendingTail = probe.slice(-3);
      return this.strip ? '' : chunk;
    }
    const cut = endInProbe - this.pendingTail.length;
    const events = this.pending.join('') + fresh.slice(0, cut);
    const rest = fresh.slice(cut);
    this.pending = rest.length > 0 ? [rest] : [];
    this.pendingTail = rest.slice(-3);
    const sent = this.observe(events, false);
    return this.strip ? sent : chunk;
  }

  /** At the end of the body: a last event without its blank line. Returns what to send on. */
  end(): string {
    const text = this.pending.join('') + (this.decoder?.end() ?? '');
    this.pending = [];
    this.pendingTail = '';
    if (text.trim() === '') return this.strip ? text : '';
    const sent = this.observe(text, true);
    return this.strip ? sent : '';
  }

  /** Returns the events to send (all but a stripped usage-only chunk). */
  private observe(events: string, last: boolean): string {
    this.usage.countText(events);
    const match = MAY_MATTER.exec(events);
    if (match === null) return events;
    // The events before the one holding the first match cannot matter: only the rest is parsed.
    const start = eventStartBefore(events, match.index, this.crSeen);
    const parser = new SseParser();
    const parsed = parser.push(start === 0 ? events : events.slice(start));
    if (last) parsed.push(...parser.end());
    let sent = events.slice(0, start);
    for (const e of parsed) {
      if (e.data !== '[DONE]') this.usage.readUsage(e.data);
      if (isTerminal(e, this.surface)) this.finished = true;
      if (!this.strip || !isUsageOnlyChunk(e.data)) sent += e.raw;
    }
    return sent;
  }
}
