// The usage journal's marks (migration 0015): how far each journal's entries are in the database,
// per sink. A sink's flush writes its mark in the flush's own transaction; replay reads them.
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

/** Where journal entries end up: the hourly usage aggregates, the per-request log. */
export type JournalSink = 'usage' | 'request_log';

export interface JournalMark {
  journalId: string;
  sink: JournalSink;
  /** Every entry of the journal up to this sequence number is in this sink's tables. */
  seq: number;
}

/** The upsert with `?` placeholders, for SQLite's prepared batch (OpenedDatabase.runBatch). */
export const UPSERT_JOURNAL_MARK = 'insert into usage_journal_marks (journal_id, sink, seq) values (?, ?, ?) on conflict (journal_id, sink) do update set seq = excluded.seq';

export function journalMarkRow(mark: JournalMark): unknown[] {
  return [mark.journalId, mark.sink, mark.seq];
}

/** Inside the flush's transaction. */
export async function writeJournalMark(trx: Kysely<Database>, mark: JournalMark): Promise<void> {
  await trx
    .insertInto('usage_journal_marks')
    .values({ journal_id: mark.journalId, sink: mark.sink, seq: mark.seq })
    .onConflict((oc) => oc.columns(['journal_id', 'sink']).doUpdateSet((eb) => ({ seq: eb.ref('excluded.seq') })))
    .execute();
}

/** The marks of one journal; 0 for a sink that has none yet. */
export async function readJournalMarks(db: Kysely<Database>, journalId: string): Promise<Record<JournalSink, number>> {
  const rows = await db.selectFrom('usage_journal_marks').select(['sink', 'seq']).where('journal_id', '=', journalId).execute();
  const marks: Record<JournalSink, number> = { usage: 0, request_log: 0 };
  for (const row of rows) if (row.sink === 'usage' || row.sink === 'request_log') marks[row.sink] = Number(row.seq);
  return marks;
}
