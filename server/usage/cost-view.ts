// Cost as answers and pages show it: `costMicros` (exact integer, micro-units = 1e-6 of the
// currency), `cost` (the same in currency units) and `currency`. Unknown is null, never 0: a row
// with any request of a model that had no price has no total cost.
import { unitsOfMicros } from '../pricing/money.ts';

export interface CostCounts {
  costMicros: number;
  /** Requests without a price among those counted. */
  unpriced: number;
}

export interface CostView {
  cost: number | null;
  costMicros: number | null;
  currency: string | null;
  unpricedRequests: number;
}

export function costView(counts: CostCounts, currency: string | undefined): CostView {
  const known = counts.unpriced === 0;
  return {
    cost: known ? unitsOfMicros(counts.costMicros) : null,
    costMicros: known ? counts.costMicros : null,
    currency: currency ?? null,
    unpricedRequests: counts.unpriced,
  };
}

/** JSON-schema properties of a CostView, for the operator API. */
export const COST_VIEW_PROPERTIES = {
  cost: { type: ['number', 'null'], description: 'In currency units; null when a request of the row had no price' },
  costMicros: { type: ['integer', 'null'], description: 'The exact cost in micro-units (1e-6) of the currency' },
  currency: { type: ['string', 'null'], description: 'The price table currency (null while there are no prices)' },
  unpricedRequests: { type: 'integer', description: 'Requests of a model without a price (their cost is unknown)' },
} as const;
