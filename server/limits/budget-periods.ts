// Budget periods are calendar periods in UTC: a day budget resets at 00:00 UTC, a month budget at
// 00:00 UTC on the first of the month. Counters are named by their period so old ones simply stop
// being read (and expire).

export type PeriodKind = 'day' | 'month';

export interface Period {
  kind: PeriodKind;
  /** `2026-11-23` or `2026-11`: part of the counter's name. */
  label: string;
  /** Epoch milliseconds when the next period starts. */
  endsAt: number;
}

export function periodOf(kind: PeriodKind, now: number): Period {
  const at = new Date(now);
  const year = at.getUTCFullYear();
  const month = at.getUTCMonth();
  if (kind === 'day') {
    return { kind, label: at.toISOString().slice(0, 10), endsAt: Date.UTC(year, month, at.getUTCDate() + 1) };
  }
  return { kind, label: at.toISOString().slice(0, 7), endsAt: Date.UTC(year, month + 1, 1) };
}
