// The models each gateway instance serves, as it announced them at its last start (migration 0025).
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

export interface ServedModelsAnnouncement {
  instance: string;
  models: string[];
  announcedAt: string;
}

export class ServedModelsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async announce(instance: string, models: readonly string[], at = new Date()): Promise<void> {
    const row = { instance, models: JSON.stringify([...models].sort()), announced_at: at.toISOString() };
    await this.db
      .insertInto('served_models')
      .values(row)
      .onConflict((oc) => oc.column('instance').doUpdateSet({ models: row.models, announced_at: row.announced_at }))
      .execute();
  }

  /** Newest first. */
  async list(): Promise<ServedModelsAnnouncement[]> {
    const rows = await this.db.selectFrom('served_models').selectAll().orderBy('announced_at', 'desc').execute();
    return rows.map((r) => ({ instance: r.instance, models: JSON.parse(r.models) as string[], announcedAt: r.announced_at }));
  }
}
