// Setting and deleting price entries, shared by `gwctl admin price …` and the operator API: the
// entry is checked (every field, one currency for the whole table), written, and audited. A change
// applies to usage recorded from then on (and from its `from` date); recorded cost never changes.
import type { AuditEntry } from '../store/audit-repo.ts';
import type { Store } from '../store/store.ts';
import { parsePrice, PriceInputError } from './price-input.ts';
import type { Price } from './price.ts';

export type Actor = Pick<AuditEntry, 'actor' | 'address'>;

const target = (p: Pick<Price, 'model' | 'provider' | 'from'>) => `price:${p.model}${p.provider ? ` provider ${p.provider}` : ''}${p.from ? ` from ${p.from}` : ''}`;

/**
 * Checks and stores one entry; `others` are the entries it must agree with on currency (the
 * database's, and the providers file's where the caller knows them). Returns the stored entry and
 * whether it replaced one of the same model, provider and date.
 */
export async function setPrice(store: Store, raw: unknown, actor: Actor, others: readonly Price[] = []): Promise<{ price: Price; replaced: boolean }> {
  const price = parsePrice(raw);
  const existing = [...others, ...(await store.prices.list())];
  const clash = existing.find((p) => p.currency !== price.currency && !(p.model === price.model && (p.provider ?? '') === (price.provider ?? '') && (p.from ?? '') === (price.from ?? '')));
  if (clash) {
    throw new PriceInputError('currency', `must be ${clash.currency}, the currency of the other prices (one table, one currency); got ${price.currency}`);
  }
  const replaced = await store.prices.set(price);
  await store.audit.record({ ...actor, action: 'price.set', target: target(price), details: { price, replaced } });
  return { price, replaced };
}

/** Deletes the entry of this model, provider and date; false when the database has none. */
export async function deletePrice(store: Store, key: Pick<Price, 'model' | 'provider' | 'from'>, actor: Actor): Promise<boolean> {
  const deleted = await store.prices.delete(key);
  if (deleted) await store.audit.record({ ...actor, action: 'price.delete', target: target(key) });
  return deleted;
}
