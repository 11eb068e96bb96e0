// Opens the store named by a database URL (sqlite://<path>, sqlite::memory:, postgres://…),
// brings its schema up to date and reports whether other processes changed it.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type Transaction } from 'kysely';
import { encodeRevocation, REVOCATION_CHANNEL, type RevocationEvent } from '../cluster/revocation.ts';
import { ConfigError } from '../errors/config-error.ts';
import { describeDatabaseUrl } from './database-url.ts';
import type { Database } from './schema.ts';
import { migrationProvider } from './migrations/index.ts';

export type DialectName = 'sqlite' | 'postgres';

export interface OpenedDatabase {
  db: Kysely<Database>;
  dialect: DialectName;
  /**
   * True when another connection committed a change since the last call. Used to drop
   * in-memory caches (a key deleted by `gwctl admin` in another process). Cheap and synchronous.
   * Undefined when the dialect cannot tell, in which case callers must not cache.
   */
  changedElsewhere?: () => boolean;
  /**
   * PostgreSQL: sends a revocation to every listening instance as part of the transaction that
   * made it, so the event exists exactly when the change committed. SQLite needs none (data_version).
   */
  notifyRevocation?: (trx: Transaction<Database>, event: RevocationEvent) => Promise<void>;
  /**
   * SQLite: runs one prepared statement (kept) once per row, all in one transaction, holding the
   * connection as kysely does. Much cheaper than a multi-row INSERT built and parsed per batch.
   * `also` is one more statement run in the same transaction (the usage journal's mark).
   */
  runBatch?: (sql: string, rows: unknown[][], also?: BatchStatement) => Promise<void>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface BatchStatement {
  sql: string;
  params: unknown[];
}

export interface DatabaseOptions {
  /** PostgreSQL: connections in the pool (default 10). */
  poolSize?: number;
  /** PostgreSQL: longest a statement may run before the server cancels it (default 10 s; 0 = none). */
  statementTimeoutMs?: number;
}

export const DEFAULT_POOL_SIZE = 10;
export const DEFAULT_STATEMENT_TIMEOUT_MS = 10_000;

export async function openDatabase(url: string, options: DatabaseOptions = {}): Promise<OpenedDatabase> {
  const opened = url.startsWith('sqlite:') ? openSqlite(url) : url.startsWith('postgres') ? await openPostgres(url, options) : undefined;
  if (!opened) {
    throw new ConfigError(
      'bad_database_url',
      `Unsupported database URL "${describeDatabaseUrl(url)}".`,
      'Use sqlite://<path-to-file>, sqlite::memory: or postgres://user@host:5432/db.',
    );
  }
  try {
    await migrate(opened.db, opened.dialect);
  } catch (error) {
    await opened.close();
    throw new ConfigError(
      'database_unavailable',
      `Could not open or migrate the database at ${describeDatabaseUrl(url)}: ${(error as Error).message}`,
      'Check that the database is reachable and that this user may write to it.',
    );
  }
  return opened;
}

function openSqlite(url: string): OpenedDatabase {
  const path = url === 'sqlite::memory:' ? ':memory:' : url.replace(/^sqlite:(\/\/)?/, '');
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const handle = new BetterSqlite3(path);
  handle.pragma('journal_mode = WAL');
  // In WAL mode NORMAL syncs at checkpoints, not at every commit: the once-a-second usage and
  // request-log writes no longer wait on fsync on the event loop. A crash of the process loses
  // nothing; a power cut may lose the last second's commits, never the database's consistency.
  handle.pragma('synchronous = NORMAL');
  handle.pragma('busy_timeout = 5000');
  handle.pragma('foreign_keys = ON');
  const dataVersion = handle.prepare('PRAGMA data_version').pluck();
  let lastVersion = dataVersion.get() as number;
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: handle }) });
  const statements = new Map<string, BetterSqlite3.Statement>();
  const prepare = (sql: string): BetterSqlite3.Statement => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = handle.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  return {
    db,
    dialect: 'sqlite',
    runBatch: (sql, rows, also) =>
      // Holding kysely's one connection: no kysely transaction is open meanwhile.
      db.connection().execute(async () => {
        const prepared = prepare(sql);
        const extra = also && prepare(also.sql);
        handle.transaction(() => {
          for (const row of rows) prepared.run(row);
          if (extra) extra.run(also.params);
        })();
      }),
    changedElsewhere: () => {
      const version = dataVersion.get() as number;
      if (version === lastVersion) return false;
      lastVersion = version;
      return true;
    },
    ping: async () => {
      try {
        handle.prepare('select id from schema_probe limit 1').get();
        return true;
      } catch {
        return false;
      }
    },
    close: async () => {
      await db.destroy();
    },
  };
}

async function openPostgres(url: string, options: DatabaseOptions): Promise<OpenedDatabase> {
  // Loaded only for PostgreSQL: the embedded default never pays for the driver.
  const { default: pg } = await import('pg');
  const statementTimeout = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? DEFAULT_POOL_SIZE,
    connectionTimeoutMillis: 5_000,
    ...(statementTimeout > 0 ? { statement_timeout: statementTimeout } : {}),
  });
  // A lost connection must never crash the process: an idle client's error reaches the pool, a
  // checked-out one's reaches the client itself (both unhandled would be fatal). The query that
  // was running fails on its own and is answered 503.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    dialect: 'postgres',
    notifyRevocation: async (trx, event) => {
      await sql`select pg_notify(${REVOCATION_CHANNEL}, ${encodeRevocation(event)})`.execute(trx);
    },
    ping: async () => {
      try {
        await sql`select id from schema_probe limit 1`.execute(db);
        return true;
      } catch {
        return false;
      }
    },
    close: async () => {
      await db.destroy();
    },
  };
}

/** Any 64-bit number shared by every gwctl process: migrations of one database run one at a time. */
const MIGRATION_LOCK = 7_430_261_123;

async function migrate(db: Kysely<Database>, dialect: DialectName): Promise<void> {
  if (dialect !== 'postgres') return migrateNow(db);
  // Instances started together on an empty database: one migrates, the others wait for it.
  await db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK})`.execute(connection);
    try {
      await migrateNow(connection);
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK})`.execute(connection);
    }
  });
}

async function migrateNow(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`migration ${failed?.migrationName ?? '?'} failed: ${(error as Error).message ?? error}`);
  }
}
