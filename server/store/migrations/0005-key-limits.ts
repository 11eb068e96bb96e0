// Optional limits per API key: expiry, allowed models (a JSON array), its own rate limit, and token
// or request budgets per UTC day and month. Null everywhere means "no limit", so existing keys
// keep working exactly as before.
import type { Kysely } from 'kysely';

const COLUMNS: Array<[string, 'text' | 'integer' | 'bigint']> = [
  ['expires_at', 'text'],
  ['models', 'text'],
  ['rate_limit', 'integer'],
  ['budget_tokens_day', 'bigint'],
  ['budget_tokens_month', 'bigint'],
  ['budget_requests_day', 'bigint'],
  ['budget_requests_month', 'bigint'],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  // One statement per column: SQLite's ALTER TABLE adds one column at a time.
  for (const [name, type] of COLUMNS) await db.schema.alterTable('api_keys').addColumn(name, type).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name] of COLUMNS) await db.schema.alterTable('api_keys').dropColumn(name).execute();
}
