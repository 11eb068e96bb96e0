// The usage journal: every usage event is appended here as one JSON line, and the request's answer
// ends only once the line is written. The lines of one turn of the event loop are written together,
// with one synchronous write on an O_APPEND descriptor; afterWrite() holds the answers until then.
// When writeSync returns, the lines are in the kernel's page cache, which outlives the process: a
// SIGKILL, an out-of-memory kill or a crash of node loses nothing written. A power cut or a kernel
// crash can lose the last lines (there is no fsync: it would cost milliseconds each); the database
// flush has the same bound (SQLite synchronous=NORMAL).
//
// The usage meter and the request log keep flushing to the database on their timer; each writes, in
// the flush's own transaction, how far the journal is in it (usage_journal_marks). At start, the
// entries after those marks are replayed (replay-usage-journal.ts): every request counted once.
// Entries live in segment files: a new one begins when a sink reports a flush, and a segment goes
// once every sink has written all of its entries, so the journal holds about one flush interval.
// While the database is away the journal grows: that is what it is for.
import { closeSync, mkdirSync, openSync, readFileSync, readdirSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { randomBase62 } from '../auth/random-tokens.ts';
import type { JournalSink } from '../store/usage-journal-marks.ts';
import { lockJournalDir, unlockJournalDir } from './journal-lock.ts';
import { parseJournalSegment, type JournalEntry } from './journal-segment.ts';

/** What a buffered sink (usage meter, request log) needs of the journal. */
export interface JournalCursor {
  readonly id: string;
  /** The sequence number of the last entry appended: every entry up to it is in the sinks' memory or the database. */
  lastSeq(): number;
  /** A sink has every entry up to `seq` in the database (it flushed them, or had none to flush). */
  durable(sink: JournalSink, seq: number): void;
}

interface Segment {
  path: string;
  number: number;
  lastSeq: number;
  entries: number;
  bytes: number;
}

/** A segment this large is closed and a new one begun even without a flush (the database is away). */
const DEFAULT_MAX_SEGMENT_BYTES = 16 * 1024 * 1024;

const SEGMENT = /^segment-(\d+)\.jsonl$/;
const segmentName = (n: number): string => `segment-${String(n).padStart(8, '0')}.jsonl`;

export class UsageJournal implements JournalCursor {
  /** Appends that failed (disk full, I/O error): those requests are counted in memory only. */
  appendFailures = 0;
  /** Lines of the segments an earlier run left that could not be read (a line torn by the crash). */
  unreadableLines = 0;
  private leftoversRead = false;
  private readonly closed: Segment[];
  private current: Segment | undefined;
  private fd: number | undefined;
  private seq = 0;
  private readonly durableSeq = new Map<JournalSink, number>();
  /** Lines appended and not yet written (this turn of the event loop). */
  private batch = '';
  private batchLines = 0;
  private batchScheduled = false;
  private waiting: Array<() => void> = [];

  private constructor(
    readonly dir: string,
    readonly id: string,
    found: Segment[],
    private readonly sinks: readonly JournalSink[],
    private readonly maxSegmentBytes: number,
  ) {
    this.closed = found;
  }

  /**
   * Opens the journal in `dir` (created if needed; one gateway at a time). What an earlier run left
   * is read with leftovers(); appending starts with begin().
   */
  static open(dir: string, sinks: readonly JournalSink[], options: { maxSegmentBytes?: number } = {}): UsageJournal {
    mkdirSync(dir, { recursive: true });
    lockJournalDir(dir);
    const idFile = join(dir, 'journal-id');
    let id: string;
    try {
      id = readFileSync(idFile, 'utf8').trim();
    } catch {
      id = '';
    }
    if (!id) {
      id = `jnl_${randomBase62(16)}`;
      writeFileSync(idFile, `${id}\n`);
    }
    const segments = readdirSync(dir)
      .map((name) => SEGMENT.exec(name))
      .filter((match): match is RegExpExecArray => match !== null)
      .map((match) => Number(match[1]))
      .sort((a, b) => a - b)
      .map((number) => ({ path: join(dir, segmentName(number)), number, lastSeq: 0, entries: 0, bytes: 0 }));
    return new UsageJournal(dir, id, segments, sinks, options.maxSegmentBytes ?? DEFAULT_MAX_SEGMENT_BYTES);
  }

  /**
   * The entries an earlier run left, in sequence order, read one segment at a time (a journal that
   * grew while the database was away need not fit in memory at once). Read once, before begin().
   */
  *leftovers(): Generator<JournalEntry> {
    if (this.leftoversRead) return;
    this.leftoversRead = true;
    for (const segment of [...this.closed]) {
      const read = parseJournalSegment(readFileSync(segment.path, 'utf8'));
      this.unreadableLines += read.unreadable;
      segment.lastSeq = read.entries.at(-1)?.seq ?? 0;
      segment.entries = read.entries.length;
      yield* read.entries;
    }
  }

  /** Starts appending after `seq` (the highest the journal or the database has seen) in a new segment. */
  begin(seq: number): void {
    // Until read, an earlier run's segments have no known last entry and could be trimmed unread.
    if (!this.leftoversRead && this.closed.length > 0) throw new Error('usage journal: read the leftovers before appending');
    this.leftoversRead = true;
    this.seq = seq;
    this.openSegment((this.closed.at(-1)?.number ?? 0) + 1);
  }

  /**
   * Appends one event (every field of it, as JSON) before it is counted in memory. The line is
   * written with the others of this turn of the event loop, in one system call (a system call costs
   * the gateway several µs a request; BENCHMARKS.md): afterWrite() runs what must wait for it.
   */
  append(event: object, inRequestLog: boolean, at: number = Date.now()): void {
    if (this.fd === undefined) return;
    const seq = ++this.seq;
    this.batch += '{"s":' + seq + ',"t":' + at + ',"l":' + (inRequestLog ? 1 : 0) + ',"e":' + JSON.stringify(event) + '}\n';
    this.batchLines += 1;
    if (!this.batchScheduled) {
      this.batchScheduled = true;
      setImmediate(this.writeBatch);
    }
  }

  /** Runs `then` once every line appended so far is written: at once when none waits. */
  afterWrite(then: () => void): void {
    if (this.batchLines === 0) then();
    else this.waiting.push(then);
  }

  /**
   * Writes the lines appended so far, synchronously (on an O_APPEND descriptor: in the page cache
   * when it returns). Never throws: a failed write is counted, those requests stay counted in memory.
   */
  writeNow(): void {
    const fd = this.fd;
    const current = this.current;
    const lines = this.batchLines;
    if (lines === 0 || fd === undefined || current === undefined) return;
    const text = this.batch;
    this.batch = '';
    this.batchLines = 0;
    let written: number;
    try {
      written = writeSync(fd, text);
    } catch {
      this.appendFailures += lines;
      return;
    }
    if (written !== Buffer.byteLength(text)) {
      // A partial write (the disk filled up): later lines go to a fresh segment, not glued onto it.
      this.appendFailures += lines;
      this.rotate();
      return;
    }
    current.lastSeq = this.seq;
    current.entries += lines;
    current.bytes += written;
    if (current.bytes >= this.maxSegmentBytes) this.rotate();
  }

  /** The turn's batch: written, then the answers that waited for it are let go. */
  private readonly writeBatch = (): void => {
    this.batchScheduled = false;
    this.writeNow();
    const waiting = this.waiting;
    if (waiting.length === 0) return;
    this.waiting = [];
    for (const then of waiting) then();
  };

  lastSeq(): number {
    return this.seq;
  }

  durable(sink: JournalSink, seq: number): void {
    this.durableSeq.set(sink, Math.max(this.durableSeq.get(sink) ?? 0, seq));
    this.writeNow();
    if (this.current && this.current.entries > 0) this.rotate();
    let upTo = Infinity;
    for (const name of this.sinks) upTo = Math.min(upTo, this.durableSeq.get(name) ?? 0);
    while (this.closed.length > 0 && this.closed[0]!.lastSeq <= upTo) removeFile(this.closed.shift()!.path);
  }

  /** Segment files on disk now (tests, metrics). */
  get segments(): number {
    return this.closed.length + (this.current ? 1 : 0);
  }

  /** Stops appending and lets another process open the directory; what is not yet durable stays on disk. */
  close(): void {
    this.writeNow();
    if (this.fd !== undefined) closeSync(this.fd);
    if (this.current && this.current.entries === 0) removeFile(this.current.path);
    this.fd = undefined;
    this.current = undefined;
    unlockJournalDir(this.dir);
  }

  private rotate(): void {
    // A segment's lines are all in it before it closes.
    this.writeNow();
    const previous = this.current;
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    this.current = undefined;
    if (!previous) return;
    this.closed.push(previous);
    this.openSegment(previous.number + 1);
  }

  private openSegment(number: number): void {
    const path = join(this.dir, segmentName(number));
    this.fd = openSync(path, 'a');
    this.current = { path, number, lastSeq: this.seq, entries: 0, bytes: 0 };
  }
}

function removeFile(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone: nothing to keep.
  }
}
