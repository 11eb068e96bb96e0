// What each running gateway serves, announced when it starts: the command line (`gwctl admin key
// create --models …`) has no router of its own, and reads this to refuse a key whose models name
// nothing the gateway serves. One row per gateway instance, replaced at each start.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('served_models')
    .addColumn('instance', 'text', (c) => c.primaryKey())
    .addColumn('models', 'text', (c) => c.notNull())
    .addColumn('announced_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('served_models').ifExists().execute();
}
