// Usage per client session (the session id a client such as a coding agent sends in a header), so
// operators can see what one session cost. Only the id is kept, never any body content.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('usage_sessions')
    .addColumn('hour', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('requests', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('input_tokens', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('output_tokens', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('errors', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('usage_sessions_pk', ['hour', 'user_id', 'key_id', 'session_id', 'model'])
    .execute();
  await db.schema.createIndex('usage_sessions_user_idx').on('usage_sessions').columns(['user_id', 'hour']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('usage_sessions').ifExists().execute();
}
