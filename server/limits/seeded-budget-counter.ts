// Budgets survive a restart: before a subject's budget is first read or charged in a period, its
// counters are seeded from the usage the database holds for that period (requests that reached a
// provider, tokens, cost: one line per unit). A single instance continues from there; instances
// sharing Redis seed a missing Redis counter once (SET NX) and share it as before. Usage this
// instance records after seeding reaches the counters through charges, never through a re-read.
import { BUDGET_UNITS, type BudgetCounter, type BudgetUnit } from './budget-counter.ts';
import type { Period } from './budget-periods.ts';

export type BudgetUsed = Record<BudgetUnit, number>;

/** What the database holds for a subject (`key:<id>` or `user:<id>`) in a period. */
export type BudgetLoader = (subject: string, period: Period) => Promise<BudgetUsed>;

export class SeededBudgetCounter implements BudgetCounter {
  private readonly seeded = new Map<string, { done: Promise<void>; endsAt: number }>();
  private sweptAt = 0;

  constructor(
    private readonly inner: BudgetCounter,
    private readonly load: BudgetLoader,
    private readonly now: () => number = Date.now,
  ) {}

  async used(subject: string, unit: BudgetUnit, period: Period): Promise<number> {
    await this.ensureSeeded(subject, period);
    return this.inner.used(subject, unit, period);
  }

  async charge(subject: string, unit: BudgetUnit, period: Period, amount: number): Promise<void> {
    await this.ensureSeeded(subject, period);
    await this.inner.charge(subject, unit, period, amount);
  }

  seed(subject: string, unit: BudgetUnit, period: Period, amount: number): void | Promise<void> {
    return this.inner.seed(subject, unit, period, amount);
  }

  private ensureSeeded(subject: string, period: Period): Promise<void> {
    const id = `${subject}\u0000${period.kind}\u0000${period.label}`;
    const known = this.seeded.get(id);
    if (known) return known.done;
    this.sweep();
    const done = this.load(subject, period).then(async (used) => {
      for (const unit of BUDGET_UNITS) await this.inner.seed(subject, unit, period, used[unit]);
    });
    // A failed read is tried again with the next request rather than leaving the budget unseeded.
    done.catch(() => this.seeded.delete(id));
    this.seeded.set(id, { done, endsAt: period.endsAt });
    return done;
  }

  private sweep(): void {
    const now = this.now();
    if (now - this.sweptAt < 60_000) return;
    this.sweptAt = now;
    for (const [id, entry] of this.seeded) if (entry.endsAt <= now) this.seeded.delete(id);
  }
}
