// The support desk's columns. Every API request the gateway answered gets a request-log row, refused
// ones included (an unknown key, a wrong path: user and key are '' then), so an operator can look a
// request id up: the gateway's request id, method, path (never the query), the client's protocol,
// the error code and the gateway's own message (never an upstream's body), an unknown key's masked
// hint and fingerprint (a prefix of its SHA-256, never the value), the provider, its status and
// request id, and the attempts. Deleted keys leave a tombstone (their hash, owner and when), so a
// request made later with a deleted key is told apart from a value no key ever had.
import type { Kysely } from 'kysely';

const COLUMNS = [
  ['request_id', 'text'],
  ['method', 'text'],
  ['path', 'text'],
  ['protocol', 'text'],
  ['error_code', 'text'],
  ['error_message', 'text'],
  ['key_hint', 'text'],
  ['key_fingerprint', 'text'],
  ['provider', 'text'],
  ['upstream_status', 'integer'],
  ['upstream_request_id', 'text'],
  ['attempts', 'integer'],
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, type] of COLUMNS) await db.schema.alterTable('request_log').addColumn(name, type).execute();
  await db.schema.createIndex('request_log_request_id_idx').on('request_log').column('request_id').execute();
  // Only rows that name them: a key's fingerprint (refused values) and an upstream's request id.
  await db.schema
    .createIndex('request_log_fingerprint_idx')
    .on('request_log')
    .columns(['key_fingerprint', 'at'])
    .where('key_fingerprint', 'is not', null)
    .execute();
  await db.schema
    .createIndex('request_log_upstream_id_idx')
    .on('request_log')
    .column('upstream_request_id')
    .where('upstream_request_id', 'is not', null)
    .execute();
  await db.schema
    .createTable('deleted_keys')
    .addColumn('key_hash', 'text', (c) => c.primaryKey())
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('hint', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('deleted_keys_key_id_idx').on('deleted_keys').column('key_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('deleted_keys').ifExists().execute();
  await db.schema.dropIndex('request_log_upstream_id_idx').ifExists().execute();
  await db.schema.dropIndex('request_log_fingerprint_idx').ifExists().execute();
  await db.schema.dropIndex('request_log_request_id_idx').ifExists().execute();
  for (const [name] of [...COLUMNS].reverse()) await db.schema.alterTable('request_log').dropColumn(name).execute();
}
