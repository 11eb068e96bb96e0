// Cost as the pages write it: an amount in the price table's currency, or "unknown" with why when a
// request had no price (never a silent 0).
import { formatMicros } from '../pricing/money.ts';

export function costText(totals: { costMicros?: number; unpriced?: number }, currency: string | undefined): string {
  if ((totals.unpriced ?? 0) > 0) return `unknown (${totals.unpriced} without a price)`;
  return `${formatMicros(totals.costMicros ?? 0)}${currency ? ` ${currency}` : ''}`;
}
