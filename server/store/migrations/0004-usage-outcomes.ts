// Requests that reached a provider but did not complete normally (client aborted, upstream cut,
// shutdown), counted per hour, user, key, model and outcome beside the usage they were billed in.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('usage_outcomes')
    .addColumn('hour', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('usage_outcomes_pk', ['hour', 'user_id', 'key_id', 'model', 'outcome'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('usage_outcomes').ifExists().execute();
}
