// Optional limits per user, an upper bound for all of the user's keys: allowed models (a JSON array)
// and token or request budgets per UTC day and month, counted over all their keys together.
// Null means "no limit", so existing accounts keep working as before.
import type { Kysely } from 'kysely';

const COLUMNS: Array<[string, 'text' | 'bigint']> = [
  ['models', 'text'],
  ['budget_tokens_day', 'bigint'],
  ['budget_tokens_month', 'bigint'],
  ['budget_requests_day', 'bigint'],
  ['budget_requests_month', 'bigint'],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  // One statement per column: SQLite's ALTER TABLE adds one column at a time.
  for (const [name, type] of COLUMNS) await db.schema.alterTable('users').addColumn(name, type).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name] of COLUMNS) await db.schema.alterTable('users').dropColumn(name).execute();
}
