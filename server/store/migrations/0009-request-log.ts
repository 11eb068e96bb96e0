// The request log: one row per API request made with a key (time, key, model, status, tokens,
// latency, the client's session id). Never any body content. Written in batches by the in-memory
// buffer (usage/request-log.ts) and pruned after a retention period.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('request_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('input_tokens', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('output_tokens', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('latency_ms', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('session_id', 'text')
    .addColumn('outcome', 'text')
    .execute();
  // The page reads one owner's entries newest first (keyset paging on at, id), optionally of one key;
  // pruning deletes by age.
  await db.schema.createIndex('request_log_user_at_idx').on('request_log').columns(['user_id', 'at', 'id']).execute();
  await db.schema.createIndex('request_log_key_at_idx').on('request_log').columns(['key_id', 'at', 'id']).execute();
  await db.schema.createIndex('request_log_at_idx').on('request_log').column('at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('request_log').ifExists().execute();
}
