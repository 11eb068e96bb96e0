// How much of a budget a subject (a key or a user) has used in a period. This in-memory counter is
// per instance: without Redis, two instances each allow the whole budget (documented in
// server/README.md). The Redis one (server/cluster/redis-budget-counter.ts) is shared by every
// instance. Either starts from what the database holds (SeededBudgetCounter), so a restart does not
// hand out a budget again.
import type { Period } from './budget-periods.ts';

export const BUDGET_UNITS = ['requests', 'tokens', 'cost'] as const;
/** What a budget counts; cost is micro-units of the price table's currency. */
export type BudgetUnit = (typeof BUDGET_UNITS)[number];

export interface BudgetCounter {
  used(subject: string, unit: BudgetUnit, period: Period): number | Promise<number>;
  charge(subject: string, unit: BudgetUnit, period: Period, amount: number): void | Promise<void>;
  /** Sets the count when it has none yet (what the database holds, after a restart); a count already there wins. */
  seed(subject: string, unit: BudgetUnit, period: Period, amount: number): void | Promise<void>;
}

export function counterName(subject: string, unit: BudgetUnit, period: Period): string {
  return `${subject}:${unit}:${period.kind}:${period.label}`;
}

export class MemoryBudgetCounter implements BudgetCounter {
  private readonly counts = new Map<string, { value: number; endsAt: number }>();
  private sweptAt = 0;

  constructor(private readonly now: () => number = Date.now) {}

  used(subject: string, unit: BudgetUnit, period: Period): number {
    return this.counts.get(counterName(subject, unit, period))?.value ?? 0;
  }

  charge(subject: string, unit: BudgetUnit, period: Period, amount: number): void {
    if (amount <= 0) return;
    this.sweep();
    const name = counterName(subject, unit, period);
    const entry = this.counts.get(name) ?? { value: 0, endsAt: period.endsAt };
    entry.value += amount;
    this.counts.set(name, entry);
  }

  seed(subject: string, unit: BudgetUnit, period: Period, amount: number): void {
    const name = counterName(subject, unit, period);
    if (amount <= 0 || this.counts.has(name)) return;
    this.counts.set(name, { value: amount, endsAt: period.endsAt });
  }

  /** Past periods are never read again; dropping them keeps memory bounded by the active keys. */
  private sweep(): void {
    const now = this.now();
    if (now - this.sweptAt < 60_000) return;
    this.sweptAt = now;
    for (const [name, entry] of this.counts) if (entry.endsAt <= now) this.counts.delete(name);
  }
}
