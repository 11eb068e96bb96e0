// A PostgreSQL database of its own for one test file, on the machine's server (127.0.0.1:5432,
// trust auth; GWCTL_TEST_POSTGRES_URL overrides), dropped at the end; plus the admin connection to
// reach into it (e.g. to terminate its connections).
import pg from 'pg';

const ADMIN_URL = process.env.GWCTL_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  url: string;
  name: string;
  admin: pg.Client;
  /** Terminates every connection to the database (what a restart or failover does to clients). */
  terminateConnections(): Promise<number>;
  drop(): Promise<void>;
}

export async function createTestDatabase(label: string): Promise<TestDatabase> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const name = `gwctl_${label}_${process.pid}_${Date.now().toString(36)}`;
  await admin.query(`create database ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    admin,
    async terminateConnections() {
      const result = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
      return result.rowCount ?? 0;
    },
    async drop() {
      await admin.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
      await admin.end().catch(() => undefined);
    },
  };
}
