// Requests may send limits in the shape answers use (`limits: {expiresAt, models, rateLimit,
// budgets: {tokensDay, …}}`); this turns them into the flat fields the limits parser reads. Flat
// fields sent beside them win, so old clients keep working.
import type { LimitsFields } from '../limits/limits-input.ts';
import { formatMicros } from '../pricing/money.ts';

export interface NestedLimits {
  expiresAt?: string | null;
  models?: string[] | null;
  rateLimit?: number | null;
  budgets?: { tokensDay?: number | null; tokensMonth?: number | null; requestsDay?: number | null; requestsMonth?: number | null; costDay?: number | null; costMonth?: number | null };
}

export function flattenLimits(limits: NestedLimits | undefined, flat: LimitsFields): LimitsFields {
  if (!limits) return flat;
  const out: Record<string, unknown> = {};
  if (limits.expiresAt !== undefined) out.expires = limits.expiresAt;
  if (limits.models !== undefined) out.models = limits.models;
  if (limits.rateLimit !== undefined) out.rateLimit = limits.rateLimit;
  const b = limits.budgets ?? {};
  if (b.tokensDay !== undefined) out.budgetTokensDay = b.tokensDay;
  if (b.tokensMonth !== undefined) out.budgetTokensMonth = b.tokensMonth;
  if (b.requestsDay !== undefined) out.budgetRequestsDay = b.requestsDay;
  if (b.requestsMonth !== undefined) out.budgetRequestsMonth = b.requestsMonth;
  // Nested money budgets are micro-units, as answers show them; the flat fields take amounts (2.50).
  if (b.costDay !== undefined) out.budgetCostDay = b.costDay === null ? null : formatMicros(b.costDay);
  if (b.costMonth !== undefined) out.budgetCostMonth = b.costMonth === null ? null : formatMicros(b.costMonth);
  return { ...(out as LimitsFields), ...flat };
}
