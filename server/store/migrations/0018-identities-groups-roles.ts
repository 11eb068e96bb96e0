// Single sign-on: the identity-provider subjects linked to gateway accounts (with the groups the
// provider last reported), the model allowlists of groups, and a role per account (operator,
// viewer, member; is_admin stays in step with operator for older readers).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('user_identities')
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    // No foreign key: the link outlives a deleted account, so the provider cannot sign a removed
    // person in again as a fresh account.
    .addColumn('user_id', 'text', (c) => c.notNull())
    /** JSON array of group names, as of the last sign-in. */
    .addColumn('groups', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_sign_in_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_identities_pk', ['issuer', 'subject'])
    .execute();
  await db.schema.createIndex('user_identities_user').on('user_identities').column('user_id').execute();
  await db.schema
    .createTable('group_policies')
    .addColumn('name', 'text', (c) => c.primaryKey())
    /** JSON array of public model names. */
    .addColumn('models', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('users').addColumn('role', 'text', (c) => c.notNull().defaultTo('member')).execute();
  await sql`update users set role = 'operator' where is_admin = 1`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('role').execute();
  await db.schema.dropTable('group_policies').ifExists().execute();
  await db.schema.dropTable('user_identities').ifExists().execute();
}
