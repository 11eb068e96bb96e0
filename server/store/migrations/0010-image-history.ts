// The images app's history: each picture a user drew, with its prompt and its PNG bytes. The bytes
// live in the database because several PostgreSQL instances share nothing else; the repository
// keeps only a user's latest pictures, so the table stays bounded.
import { PostgresAdapter, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  const bytes = db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob';
  await db.schema
    .createTable('image_history')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('prompt', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('size', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('byte_length', 'integer', (c) => c.notNull())
    .addColumn('png', bytes, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('image_history_user_idx').on('image_history').columns(['user_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('image_history').ifExists().execute();
}
