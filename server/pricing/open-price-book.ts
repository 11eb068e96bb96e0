// The running gateway's price table: the providers file's prices and the database's, with a
// warning (in `serve` output) for every served model that has no price, and for any model the
// first time it is used without one: its cost is recorded as unknown, never as zero.
import type { Logger } from 'pino';
import type { ModelRouter } from '../providers/model-router.ts';
import type { Store } from '../store/store.ts';
import { PriceBook } from './price-book.ts';
import type { Price } from './price.ts';

export async function openPriceBook(filePrices: Price[], store: Store, router: ModelRouter, logger?: Logger): Promise<PriceBook> {
  const prices = new PriceBook(filePrices, () => store.prices.list());
  await prices.reload();
  const now = Date.now();
  const unpriced = router.providers.flatMap((p) => p.models.filter((m) => !prices.resolve(m.id, p.name, now)).map((m) => m.id));
  if (unpriced.length > 0) {
    logger?.warn(
      { models: [...new Set(unpriced)] },
      `no price for ${[...new Set(unpriced)].join(', ')}: their cost is recorded as unknown. Set prices with \`gwctl admin price set\` or a prices list in the providers file.`,
    );
  }
  prices.onUnpriced = (model, reason) => logger?.warn({ model }, `cost unknown: ${reason}. Set one with \`gwctl admin price set --model ${model} …\`.`);
  return prices;
}
