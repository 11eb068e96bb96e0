// Cost: the price table's admin-set entries; the cost recorded with each request (request log), each
// hourly usage row and each client session's hourly row, with the requests that had no price or estimated tokens, and the requests
// that reached a provider (what request budgets count, so budgets can be re-read after a restart);
// money budgets per UTC day and month on keys and users. Cost and budgets are integer micro-units
// of the price table's currency.
import { sql, type Kysely } from 'kysely';

const USAGE_COUNTS = ['cost_micros', 'unpriced_requests', 'estimated_requests', 'provider_requests'];
const SESSION_COUNTS = ['cost_micros', 'unpriced_requests'];
const BUDGETS = ['budget_cost_day', 'budget_cost_month'];

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('prices')
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('from_date', 'text', (c) => c.notNull())
    .addColumn('price', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('prices_pk', ['model', 'provider', 'from_date'])
    .execute();
  // One statement per column: SQLite's ALTER TABLE adds one column at a time.
  for (const name of USAGE_COUNTS) await db.schema.alterTable('usage').addColumn(name, 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  for (const name of SESSION_COUNTS) await db.schema.alterTable('usage_sessions').addColumn(name, 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  // Rows written before this migration: every request that reached a provider is not known apart,
  // so their requests (less errors) stand in for it.
  await sql`update usage set provider_requests = requests - errors`.execute(db);
  await db.schema.alterTable('request_log').addColumn('cost_micros', 'bigint').execute();
  await db.schema.alterTable('request_log').addColumn('cost_estimated', 'integer').execute();
  for (const table of ['api_keys', 'users']) for (const name of BUDGETS) await db.schema.alterTable(table).addColumn(name, 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['api_keys', 'users']) for (const name of BUDGETS) await db.schema.alterTable(table).dropColumn(name).execute();
  await db.schema.alterTable('request_log').dropColumn('cost_estimated').execute();
  await db.schema.alterTable('request_log').dropColumn('cost_micros').execute();
  for (const name of SESSION_COUNTS) await db.schema.alterTable('usage_sessions').dropColumn(name).execute();
  for (const name of USAGE_COUNTS) await db.schema.alterTable('usage').dropColumn(name).execute();
  await db.schema.dropTable('prices').ifExists().execute();
}
