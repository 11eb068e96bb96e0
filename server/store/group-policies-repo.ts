// The model allowlists of identity-provider groups, set with `gwctl admin group set` or the
// operator API.
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

export interface GroupPolicy {
  name: string;
  models: string[];
  updatedAt: string;
}

export class GroupPoliciesRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async list(): Promise<GroupPolicy[]> {
    const rows = await this.db.selectFrom('group_policies').selectAll().orderBy('name').execute();
    return rows.map((row) => ({ name: row.name, models: JSON.parse(row.models) as string[], updatedAt: row.updated_at }));
  }

  async set(name: string, models: string[], now = new Date()): Promise<GroupPolicy> {
    const values = { name, models: JSON.stringify(models), updated_at: now.toISOString() };
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('group_policies').where('name', '=', name).execute();
      await trx.insertInto('group_policies').values(values).execute();
    });
    return { name, models, updatedAt: values.updated_at };
  }

  async delete(name: string): Promise<boolean> {
    const result = await this.db.deleteFrom('group_policies').where('name', '=', name).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
