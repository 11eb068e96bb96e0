// A key's, an owner's or a refused value's recent failures counted by cause: what support reads
// first ("12 QUOTA_EXCEEDED since Monday"), newest example of each with its request id.
import type { CauseCode } from '../../core/causes/catalogue.ts';
import type { FailureCount } from '../../core/support/support-documents.ts';
import type { RequestLogRecord } from '../store/request-log-repo.ts';
import { causeOfEntry, type EntryContext } from './cause-of-entry.ts';

/** Days of the request log a lookup reads by default. */
export const RECENT_DAYS = 7;

/** `context`: what is known of the key all entries share (a deleted key's tombstone). */
export function failuresByCause(entries: readonly RequestLogRecord[], context: EntryContext = {}): FailureCount[] {
  const byCause = new Map<CauseCode, FailureCount>();
  for (const entry of entries) {
    if (entry.status < 400 && !entry.outcome) continue;
    const { cause } = causeOfEntry(entry, context);
    const seen = byCause.get(cause);
    if (seen) seen.count += 1;
    // Entries come newest first: the first one of a cause is its newest.
    else byCause.set(cause, { cause, count: 1, lastAt: new Date(entry.at).toISOString(), lastRequestId: entry.requestId });
  }
  return [...byCause.values()].sort((a, b) => b.count - a.count || b.lastAt.localeCompare(a.lastAt));
}

export type { FailureCount };
