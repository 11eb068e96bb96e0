// At start, before the listeners open: the usage journal's entries that an earlier run appended but
// did not get into the database (it was killed between two flushes) are counted again and flushed.
// The database's marks (written in each flush's transaction) say how far each sink got, so an entry
// already written is skipped: after a crash between a flush and the journal's trimming nothing is
// counted twice. While replaying, each flush's mark is the last entry handed to the sinks, so a crash
// during the replay itself loses and doubles nothing either.
import type { JournalSink } from '../store/usage-journal-marks.ts';
import type { JournalEntry } from './journal-segment.ts';
import type { RequestLog, RequestLogEntry } from './request-log.ts';
import type { JournalCursor } from './usage-journal.ts';
import type { UsageEvent, UsageMeter } from './usage-meter.ts';

export interface ReplayResult {
  /** Entries counted again in the hourly usage / written to the request log. */
  usage: number;
  requestLog: number;
  /** The highest sequence number seen in the journal or the marks. */
  lastSeq: number;
}

export async function replayUsageJournal(
  journalId: string,
  entries: Iterable<JournalEntry>,
  marks: Record<JournalSink, number>,
  usage: UsageMeter,
  requestLog?: RequestLog,
): Promise<ReplayResult> {
  let handedOver = 0;
  const cursor: JournalCursor = { id: journalId, lastSeq: () => handedOver, durable: () => undefined };
  usage.attachJournal(cursor);
  requestLog?.attachJournal(cursor);
  const result: ReplayResult = { usage: 0, requestLog: 0, lastSeq: Math.max(marks.usage, marks.request_log) };
  for (const entry of entries) {
    const toLog = requestLog !== undefined && entry.inRequestLog && entry.seq > marks.request_log;
    // The log's buffer is bounded: write what it holds before it would drop entries. Before this
    // entry reaches either sink, so that a flush meanwhile marks only what they hold.
    if (toLog && requestLog.buffered >= requestLog.maxBuffered) await requestLog.flush();
    if (entry.seq > marks.usage) {
      usage.record(entry.event as unknown as UsageEvent, entry.at);
      result.usage += 1;
    }
    if (toLog) {
      requestLog.push(entry.event as unknown as RequestLogEntry);
      result.requestLog += 1;
    }
    handedOver = entry.seq;
    result.lastSeq = Math.max(result.lastSeq, entry.seq);
  }
  await usage.flush();
  await requestLog?.flush();
  return result;
}
