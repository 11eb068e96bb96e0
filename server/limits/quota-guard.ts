// Budgets are checked before a request (429 once used up, until the period resets) and charged
// with the request's tokens when it ends. Between the two, concurrent requests of one key can
// overshoot a budget by what they use; a budget is a spending cap, not an exact meter.
// Counting starts when a key has a budget: keys without one cost nothing here.
import { causeEntry } from '../../core/causes/catalogue.ts';
import { GatewayError } from '../errors/gateway-error.ts';
import type { BudgetCounter, BudgetUnit } from './budget-counter.ts';
import { periodOf, type PeriodKind } from './budget-periods.ts';
import { BUDGET_NAMES, hasAnyBudget, type BudgetName, type Budgets } from './key-limits.ts';

const SHAPE: Record<BudgetName, { unit: BudgetUnit; period: PeriodKind }> = {
  tokensDay: { unit: 'tokens', period: 'day' },
  tokensMonth: { unit: 'tokens', period: 'month' },
  requestsDay: { unit: 'requests', period: 'day' },
  requestsMonth: { unit: 'requests', period: 'month' },
};

/** Whose budget it is, for counters and messages: a key (`key:<id>`) or, later, its owner. */
export interface BudgetHolder {
  subject: string;
  /** "This key", "Your account": how the message names the holder. */
  label: string;
  budgets: Budgets;
}

export interface BudgetStanding {
  name: BudgetName;
  limit: number;
  used: number;
  remaining: number;
  resetsAt: string;
}

/** Every budget the holder has, with what is used and left in the current period. */
export async function standings(counter: BudgetCounter, holder: Pick<BudgetHolder, 'subject' | 'budgets'>, now: number): Promise<BudgetStanding[]> {
  const result: BudgetStanding[] = [];
  for (const name of BUDGET_NAMES) {
    const limit = holder.budgets[name];
    if (limit === null) continue;
    const period = periodOf(SHAPE[name].period, now);
    const used = await counter.used(holder.subject, SHAPE[name].unit, period);
    result.push({ name, limit, used, remaining: Math.max(0, limit - used), resetsAt: new Date(period.endsAt).toISOString() });
  }
  return result;
}

/** Throws 429 `quota_exceeded` when any budget of any holder is used up. */
export async function checkBudgets(counter: BudgetCounter, holders: BudgetHolder[], now: number): Promise<void> {
  for (const holder of holders) {
    if (!hasAnyBudget(holder.budgets)) continue;
    for (const standing of await standings(counter, holder, now)) {
      if (standing.remaining > 0) continue;
      const { unit, period } = SHAPE[standing.name];
      const retryAfter = Math.max(1, Math.ceil((Date.parse(standing.resetsAt) - now) / 1000));
      throw new GatewayError(
        429,
        'quota_exceeded',
        `${holder.label} has used its ${period === 'day' ? 'daily' : 'monthly'} budget of ${standing.limit} ${unit}. ` +
          `${causeEntry('QUOTA_EXCEEDED').userRemedy} It resets at ${standing.resetsAt} (in ${retryAfter} s).`,
        // SDKs retry 429 with back-off by default; for a quota that only burns requests.
        { headers: { 'retry-after': String(retryAfter), 'x-should-retry': 'false' } },
      );
    }
  }
}

/** Charges one finished request and its tokens to every holder that has a budget. */
export async function chargeBudgets(counter: BudgetCounter, holders: BudgetHolder[], tokens: number, now: number): Promise<void> {
  for (const holder of holders) {
    if (!hasAnyBudget(holder.budgets)) continue;
    for (const kind of ['day', 'month'] as const) {
      const period = periodOf(kind, now);
      await counter.charge(holder.subject, 'requests', period, 1);
      await counter.charge(holder.subject, 'tokens', period, tokens);
    }
  }
}
