// The request log, cheaper to write: an integer id the database assigns (SQLite: the rowid itself,
// no separate index; PostgreSQL: an identity column), `at` as integer milliseconds since the epoch
// rather than ISO text, and two indexes instead of four (owner and time, key and time; no index on
// time alone: pruning walks the oldest ids, which grow with time). Existing rows are copied in
// (at, id) order, so their new ids keep that order, and the old table is dropped.
import { PostgresAdapter, sql, type Kysely } from 'kysely';

const OTHER_COLUMNS = 'user_id, key_id, model, status, input_tokens, output_tokens, latency_ms, session_id, outcome';

/** SQLite runs migrations outside a transaction (PostgreSQL inside one): the rebuild is all or nothing either way. */
async function atomically(db: Kysely<unknown>, body: (db: Kysely<unknown>) => Promise<void>): Promise<void> {
  if (db.isTransaction) return body(db);
  await db.transaction().execute(body);
}

const isPostgres = (db: Kysely<unknown>): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgres(db);
  await atomically(db, async (db) => {
    await db.schema.dropTable('request_log_next').ifExists().execute();
    await db.schema
      .createTable('request_log_next')
      .addColumn('id', postgres ? 'bigint' : 'integer', (c) => (postgres ? c.generatedByDefaultAsIdentity().primaryKey() : c.primaryKey()))
      .addColumn('at', 'bigint', (c) => c.notNull())
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
    // ISO text to epoch ms, exactly: SQLite's julianday() is kept internally in whole milliseconds.
    const atMs = postgres
      ? sql`round(extract(epoch from at::timestamptz) * 1000)::bigint`
      : sql`cast(round((julianday(at) - 2440587.5) * 86400000.0) as integer)`;
    // Ids numbered explicitly in (at, id) order rather than trusting the insert order to assign them.
    await sql`insert into request_log_next (id, at, ${sql.raw(OTHER_COLUMNS)})
      select row_number() over (order by at, id), ${atMs}, ${sql.raw(OTHER_COLUMNS)} from request_log order by at, id`.execute(db);
    await db.schema.dropTable('request_log').execute();
    await db.schema.alterTable('request_log_next').renameTo('request_log').execute();
    if (postgres) {
      await sql`alter table request_log rename constraint request_log_next_pkey to request_log_pkey`.execute(db);
      await sql`alter sequence request_log_next_id_seq rename to request_log_id_seq`.execute(db);
      // The identity goes on after the copied ids.
      await sql`select setval(pg_get_serial_sequence('request_log', 'id'), coalesce((select max(id) from request_log), 0) + 1, false)`.execute(db);
    }
    // The page reads one owner's entries newest first (keyset paging on at, id), optionally of one key.
    await db.schema.createIndex('request_log_user_at_idx').on('request_log').columns(['user_id', 'at', 'id']).execute();
    await db.schema.createIndex('request_log_key_at_idx').on('request_log').columns(['key_id', 'at', 'id']).execute();
  });
}

/** Back to 0009's shape: text ids (`req_<n>`), ISO times, the index on time alone. */
export async function down(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgres(db);
  await atomically(db, async (db) => {
    await db.schema.dropTable('request_log_prev').ifExists().execute();
    await db.schema
      .createTable('request_log_prev')
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
    // Zero-padded so that the text ids sort as the numbers did.
    const id = postgres ? sql`'req_' || lpad(id::text, 19, '0')` : sql`'req_' || substr('0000000000000000000' || id, -19, 19)`;
    const atIso = postgres
      ? sql`to_char(timestamp 'epoch' + at * interval '1 millisecond', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
      : sql`strftime('%Y-%m-%dT%H:%M:%S', at / 1000, 'unixepoch') || '.' || substr('00' || (at % 1000), -3, 3) || 'Z'`;
    await sql`insert into request_log_prev (id, at, ${sql.raw(OTHER_COLUMNS)})
      select ${id}, ${atIso}, ${sql.raw(OTHER_COLUMNS)} from request_log order by at, id`.execute(db);
    await db.schema.dropTable('request_log').execute();
    await db.schema.alterTable('request_log_prev').renameTo('request_log').execute();
    if (postgres) await sql`alter table request_log rename constraint request_log_prev_pkey to request_log_pkey`.execute(db);
    await db.schema.createIndex('request_log_user_at_idx').on('request_log').columns(['user_id', 'at', 'id']).execute();
    await db.schema.createIndex('request_log_key_at_idx').on('request_log').columns(['key_id', 'at', 'id']).execute();
    await db.schema.createIndex('request_log_at_idx').on('request_log').column('at').execute();
  });
}
