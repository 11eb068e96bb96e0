// The price table's entries set with `gwctl admin price set` or the operator API. An entry is
// identified by model, provider and date; setting one again replaces it. Recorded cost is never
// touched by a change here: it was computed when the usage was recorded.
import type { Kysely } from 'kysely';
import type { Price } from '../pricing/price.ts';
import type { Database } from './schema.ts';

export class PricesRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async list(): Promise<Price[]> {
    const rows = await this.db.selectFrom('prices').select('price').orderBy('model').orderBy('provider').orderBy('from_date').execute();
    return rows.map((r) => JSON.parse(r.price) as Price);
  }

  /** Inserts or replaces the entry of the same model, provider and date; true when it replaced one. */
  async set(price: Price, at: string = new Date().toISOString()): Promise<boolean> {
    const key = { model: price.model, provider: price.provider ?? '', from_date: price.from ?? '' };
    return this.db.transaction().execute(async (trx) => {
      const existing = await trx.deleteFrom('prices').where('model', '=', key.model).where('provider', '=', key.provider).where('from_date', '=', key.from_date).executeTakeFirst();
      await trx.insertInto('prices').values({ ...key, price: JSON.stringify(price), updated_at: at }).execute();
      return Number(existing.numDeletedRows ?? 0n) > 0;
    });
  }

  /** Deletes the entry of this model, provider and date; false when there was none. */
  async delete(key: Pick<Price, 'model' | 'provider' | 'from'>): Promise<boolean> {
    const result = await this.db
      .deleteFrom('prices')
      .where('model', '=', key.model)
      .where('provider', '=', key.provider ?? '')
      .where('from_date', '=', key.from ?? '')
      .executeTakeFirst();
    return Number(result.numDeletedRows ?? 0n) > 0;
  }
}
