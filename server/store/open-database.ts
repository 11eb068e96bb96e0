// Opens the store named by a database URL (sqlite://<path>, sqlite::memory:, postgres://…),
// brings its schema up to date and reports whether other processes changed it.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
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
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export async function openDatabase(url: string): Promise<OpenedDatabase> {
  const opened = url.startsWith('sqlite:') ? openSqlite(url) : url.startsWith('postgres') ? await openPostgres(url) : undefined;
  if (!opened) {
    throw new ConfigError(
      'bad_database_url',
      `Unsupported database URL "${describeDatabaseUrl(url)}".`,
      'Use sqlite://<path-to-file>, sqlite::memory: or postgres://user@host:5432/db.',
    );
  }
  try {
    await migrate(opened.db);
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
  handle.pragma('busy_timeout = 5000');
  handle.pragma('foreign_keys = ON');
  const dataVersion = handle.prepare('PRAGMA data_version').pluck();
  let lastVersion = dataVersion.get() as number;
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: handle }) });
  return {
    db,
    dialect: 'sqlite',
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

async function openPostgres(url: string): Promise<OpenedDatabase> {
  // Loaded only for PostgreSQL: the embedded default never pays for the driver.
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // A lost connection must not crash the process; queries report it instead.
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    dialect: 'postgres',
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

async function migrate(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`migration ${failed?.migrationName ?? '?'} failed: ${(error as Error).message ?? error}`);
  }
}
