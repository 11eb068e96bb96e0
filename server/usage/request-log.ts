// The request log's in-memory buffer: a request pushes one small object (no database write per
// request); flush() writes what accumulated as multi-row inserts, on the usage flush cadence and at
// shutdown. The buffer is bounded: while the database is away it keeps at most `maxBuffered`
// entries and counts the ones it had to drop. Entries older than the retention are pruned now and then.
import type { RequestLogInput } from '../store/request-log-repo.ts';
import type { JournalMark } from '../store/usage-journal-marks.ts';
import type { JournalCursor } from './usage-journal.ts';

export type RequestLogEntry = RequestLogInput;

export interface RequestLogWriter {
  insert(entries: RequestLogEntry[], mark?: JournalMark): Promise<void>;
  prune(cutoff: string): Promise<number>;
}

export interface RequestLogOptions {
  /** Entries held in memory at most (default 20,000); more are dropped and counted. */
  maxBuffered?: number;
  /** Days an entry is kept (default 30). */
  retentionDays?: number;
  /** How often old entries are pruned (default hourly; the first flush prunes too). */
  pruneEveryMs?: number;
  now?: () => number;
}

export const REQUEST_LOG_RETENTION_DAYS = 30;
const DAY_MS = 86_400_000;

export class RequestLog {
  private buffer: RequestLogEntry[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private journal: JournalCursor | undefined;
  private lastPrune = -Infinity;
  /** Entries dropped because the buffer was full (the database was away for long). */
  dropped = 0;
  /** Writes that failed; their entries were kept (within the bound) for a later flush. */
  flushFailures = 0;
  readonly maxBuffered: number;
  readonly retentionDays: number;
  private readonly pruneEveryMs: number;
  private readonly now: () => number;

  constructor(
    private readonly writer: RequestLogWriter,
    options: RequestLogOptions = {},
  ) {
    this.maxBuffered = options.maxBuffered ?? 20_000;
    this.retentionDays = options.retentionDays ?? REQUEST_LOG_RETENTION_DAYS;
    this.pruneEveryMs = options.pruneEveryMs ?? 3_600_000;
    this.now = options.now ?? Date.now;
  }

  /** O(1): called once per request at the end of it. */
  push(entry: RequestLogEntry): void {
    if (this.buffer.length >= this.maxBuffered) {
      this.dropped += 1;
      return;
    }
    this.buffer.push(entry);
  }

  get buffered(): number {
    return this.buffer.length;
  }

  start(intervalMs: number): void {
    this.timer = setInterval(() => void this.flush().catch(() => undefined), intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }

  /** Writes the buffered entries; on failure they go back to the front of the buffer. */
  flush(): Promise<void> {
    this.flushing = this.flushing.catch(() => undefined).then(() => this.flushOnce());
    return this.flushing;
  }

  /** Entries of this journal are logged here; each flush writes how far (journal replay skips that). */
  attachJournal(journal: JournalCursor): void {
    this.journal = journal;
  }

  private async flushOnce(): Promise<void> {
    // Taken with the batch: every journal entry up to here is in it or was written before.
    const journal = this.journal;
    const seq = journal?.lastSeq() ?? 0;
    if (this.buffer.length > 0) {
      const batch = this.buffer;
      this.buffer = [];
      try {
        await this.writer.insert(batch, journal && { journalId: journal.id, sink: 'request_log', seq });
      } catch (error) {
        this.flushFailures += 1;
        this.requeue(batch);
        throw error;
      }
    }
    journal?.durable('request_log', seq);
    await this.pruneWhenDue();
  }

  /** The failed batch is older than what arrived since, so it goes first; the overflow is dropped. */
  private requeue(batch: RequestLogEntry[]): void {
    const merged = batch.concat(this.buffer);
    const overflow = merged.length - this.maxBuffered;
    if (overflow > 0) {
      this.dropped += overflow;
      merged.splice(0, overflow);
    }
    this.buffer = merged;
  }

  private async pruneWhenDue(): Promise<void> {
    const now = this.now();
    if (now - this.lastPrune < this.pruneEveryMs) return;
    this.lastPrune = now;
    await this.writer.prune(new Date(now - this.retentionDays * DAY_MS).toISOString());
  }
}
