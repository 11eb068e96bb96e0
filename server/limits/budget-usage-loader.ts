// Reads what a budget subject used in a period from the hourly usage table (for SeededBudgetCounter).
import type { UsageRepo } from '../store/usage-repo.ts';
import { hourBucket } from '../usage/usage-meter.ts';
import type { Period } from './budget-periods.ts';
import type { BudgetLoader } from './seeded-budget-counter.ts';

export function budgetUsageLoader(usage: Pick<UsageRepo, 'budgetTotals'>): BudgetLoader {
  return async (subject: string, period: Period) => {
    const [kind, id = ''] = subject.split(':', 2);
    // Hour labels start with the period's label (2026-11-27T08:00Z begins with 2026-11-27 and 2026-11).
    const since = period.label;
    const until = hourBucket(new Date(period.endsAt));
    return usage.budgetTotals(kind === 'user' ? { userId: id } : { keyId: id }, since, until);
  };
}
