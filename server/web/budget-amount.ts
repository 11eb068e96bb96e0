// A budget amount as the pages show it: money as a decimal amount, counts with separators.
import type { BudgetUnit } from '../limits/budget-counter.ts';
import { formatMicros } from '../pricing/money.ts';
import { formatCount } from './format.ts';

export function budgetAmount(unit: BudgetUnit, amount: number): string {
  return unit === 'cost' ? formatMicros(amount) : formatCount(amount);
}
