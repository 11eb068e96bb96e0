// Device sign-in (RFC 8628): pending device authorizations, the sign-ins they grant (one family of
// tokens per approved device), and their access and refresh tokens, stored only as SHA-256 hashes.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('device_authorizations')
    .addColumn('device_code_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_code', 'text', (c) => c.notNull().unique())
    .addColumn('client_name', 'text', (c) => c.notNull())
    .addColumn('client_address', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('interval_seconds', 'integer', (c) => c.notNull())
    .addColumn('last_polled_at', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .execute();
  await db.schema
    .createTable('sign_in_grants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('client_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('refreshed_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .addColumn('revoked_reason', 'text')
    .execute();
  await db.schema.createIndex('sign_in_grants_user').on('sign_in_grants').column('user_id').execute();
  await db.schema
    .createTable('refresh_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('grant_id', 'text', (c) => c.notNull().references('sign_in_grants.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema
    .createTable('access_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('grant_id', 'text', (c) => c.notNull().references('sign_in_grants.id').onDelete('cascade'))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('access_tokens_grant').on('access_tokens').column('grant_id').execute();
  await db.schema.createIndex('refresh_tokens_grant').on('refresh_tokens').column('grant_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['access_tokens', 'refresh_tokens', 'sign_in_grants', 'device_authorizations']) await db.schema.dropTable(table).ifExists().execute();
}
