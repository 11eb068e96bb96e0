// How far each usage journal (server/usage/usage-journal.ts) has been written to the database: per
// journal and sink (the hourly usage, the request log), the sequence number of its last entry that a
// flush committed. It is written in the same transaction as the flush, so replaying a journal after
// a crash skips exactly what the database already holds.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('usage_journal_marks')
    .addColumn('journal_id', 'text', (c) => c.notNull())
    .addColumn('sink', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_journal_marks_pk', ['journal_id', 'sink'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('usage_journal_marks').ifExists().execute();
}
