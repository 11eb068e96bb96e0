// The request log keeps the model name the client asked for beside the model that served it, when
// the two differ (a model alias: claude-opus-4-8 answered by demo-chat). Null for every other row.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('request_log').addColumn('requested_model', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('request_log').dropColumn('requested_model').execute();
}
