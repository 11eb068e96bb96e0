// Budget counters shared by every instance: one Redis counter per key, unit and period, raised with
// INCRBY and expiring when its period ends (plus a day, so a slightly fast clock elsewhere still
// reads it). If Redis does not answer, the instance counts in its own memory until it is back
// (documented: budgets are then per instance for that time).
import { MemoryBudgetCounter, counterName, type BudgetCounter, type BudgetUnit } from '../limits/budget-counter.ts';
import type { Period } from '../limits/budget-periods.ts';
import type { RedisCluster } from './redis-cluster.ts';

const CHARGE = `
local value = redis.call('INCRBY', KEYS[1], ARGV[1])
redis.call('PEXPIREAT', KEYS[1], ARGV[2])
return value`;

const GRACE_MS = 86_400_000;

export class RedisBudgetCounter implements BudgetCounter {
  private readonly local = new MemoryBudgetCounter();
  /** Operations answered by the in-memory fallback because Redis did not answer. */
  fallbacks = 0;

  constructor(private readonly cluster: RedisCluster) {}

  private name(subject: string, unit: BudgetUnit, period: Period): string {
    return `${this.cluster.prefix}budget:${counterName(subject, unit, period)}`;
  }

  async used(subject: string, unit: BudgetUnit, period: Period): Promise<number> {
    try {
      return Number((await this.cluster.command.get(this.name(subject, unit, period))) ?? 0);
    } catch {
      this.fallbacks += 1;
      return this.local.used(subject, unit, period);
    }
  }

  /** SET NX: the first instance to seed a period's counter sets it; charges made meanwhile win. */
  async seed(subject: string, unit: BudgetUnit, period: Period, amount: number): Promise<void> {
    if (amount <= 0) return;
    try {
      await this.cluster.command.set(this.name(subject, unit, period), String(amount), 'PXAT', period.endsAt + GRACE_MS, 'NX');
    } catch {
      this.fallbacks += 1;
      this.local.seed(subject, unit, period, amount);
    }
  }

  async charge(subject: string, unit: BudgetUnit, period: Period, amount: number): Promise<void> {
    if (amount <= 0) return;
    try {
      await this.cluster.command.eval(CHARGE, 1, this.name(subject, unit, period), String(amount), String(period.endsAt + GRACE_MS));
    } catch {
      this.fallbacks += 1;
      this.local.charge(subject, unit, period, amount);
    }
  }
}
