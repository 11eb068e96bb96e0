// Usage keeps the model name a client asked for beside the model that served it (a model alias:
// Claude Code asking for claude-opus-4-8, answered by demo-chat): requests per hour, owner, key,
// served model and requested name. Only aliased requests have rows; the usage table itself stays
// keyed by the served model.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('usage_requested_models')
    .addColumn('hour', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('requested_model', 'text', (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('usage_requested_models_pk', ['hour', 'user_id', 'key_id', 'model', 'requested_model'])
    .execute();
  await db.schema.createIndex('usage_requested_models_user_hour_idx').on('usage_requested_models').columns(['user_id', 'hour']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('usage_requested_models').ifExists().execute();
}
