// The period and grouping of the usage page and its CSV export, from the query string: the last
// 24 hours by hour, 7 / 30 / 90 days by day, or a custom range of days (UTC). Bad input is a 400
// that says what to send.
import { hourBucket } from '../usage/usage-meter.ts';

export const PERIODS = ['24h', '7d', '30d', '90d', 'custom'] as const;
export type PeriodName = (typeof PERIODS)[number];
export const GROUPINGS = ['model', 'key'] as const;
export type Grouping = (typeof GROUPINGS)[number];
export const MAX_CUSTOM_DAYS = 366;

export interface UsageQueryString {
  period?: string;
  from?: string;
  to?: string;
  group?: string;
}

export interface UsagePeriod {
  name: PeriodName;
  bucket: 'hour' | 'day';
  /** First hour included, as usage rows name hours ("2026-11-24T13:00Z"). */
  sinceHour: string;
  /** First hour after the period. */
  untilHour: string;
  /** Bucket ids in order: hours as above, days as "2026-11-24". */
  buckets: string[];
  /** Days covered, for the form and file names. */
  from: string;
  to: string;
  group: Grouping;
  /** "Last 24 hours", "Last 7 days", "2026-11-01 to 2026-11-20". */
  description: string;
}

export class PeriodError extends Error {
  readonly statusCode = 400;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function parseDay(value: string, name: 'from' | 'to'): number {
  const ms = Date.parse(`${value}T00:00:00Z`);
  if (!DATE.test(value) || Number.isNaN(ms) || day(ms) !== value) {
    throw new PeriodError(`“${name}” must be a date written YYYY-MM-DD (e.g. 2026-11-01); got “${value.slice(0, 40)}”.`);
  }
  return ms;
}

function daysFrom(startMs: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) => day(startMs + i * DAY_MS));
}

function hoursFrom(startMs: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) => hourBucket(new Date(startMs + i * HOUR_MS)));
}

export function parseGrouping(value: string | undefined): Grouping {
  if (value === undefined || value === '') return 'model';
  if ((GROUPINGS as readonly string[]).includes(value)) return value as Grouping;
  throw new PeriodError(`“group” must be “model” or “key”; got “${value.slice(0, 40)}”.`);
}

export function parsePeriod(query: UsageQueryString, now = new Date()): UsagePeriod {
  const group = parseGrouping(query.group);
  const hasRange = Boolean(query.from || query.to);
  const name = (query.period || (hasRange ? 'custom' : '30d')) as PeriodName;
  if (!PERIODS.includes(name)) throw new PeriodError(`“period” must be one of ${PERIODS.join(', ')}; got “${String(query.period).slice(0, 40)}”.`);
  const today = Date.parse(`${day(now.getTime())}T00:00:00Z`);

  if (name === '24h') {
    const thisHour = now.getTime() - (now.getTime() % HOUR_MS);
    const start = thisHour - 23 * HOUR_MS;
    return { name, bucket: 'hour', sinceHour: hourBucket(new Date(start)), untilHour: hourBucket(new Date(thisHour + HOUR_MS)), buckets: hoursFrom(start, 24), from: day(start), to: day(thisHour), group, description: 'Last 24 hours, by hour (UTC)' };
  }
  if (name !== 'custom') {
    const count = Number(name.slice(0, -1));
    const start = today - (count - 1) * DAY_MS;
    return { name, bucket: 'day', sinceHour: hourBucket(new Date(start)), untilHour: hourBucket(new Date(today + DAY_MS)), buckets: daysFrom(start, count), from: day(start), to: day(today), group, description: `Last ${count} days, by day (UTC)` };
  }

  if (!query.from || !query.to) throw new PeriodError('A custom period needs both “from” and “to” dates (YYYY-MM-DD).');
  const from = parseDay(query.from, 'from');
  const to = parseDay(query.to, 'to');
  if (from > to) throw new PeriodError(`“from” (${query.from}) is after “to” (${query.to}); swap them.`);
  const count = Math.round((to - from) / DAY_MS) + 1;
  if (count > MAX_CUSTOM_DAYS) throw new PeriodError(`A custom period covers at most ${MAX_CUSTOM_DAYS} days; ${query.from} to ${query.to} is ${count} days.`);
  const base = { name, sinceHour: hourBucket(new Date(from)), untilHour: hourBucket(new Date(to + DAY_MS)), from: query.from, to: query.to, group };
  // A single day is more useful hour by hour.
  if (count === 1) return { ...base, bucket: 'hour', buckets: hoursFrom(from, 24), description: `${query.from}, by hour (UTC)` };
  return { ...base, bucket: 'day', buckets: daysFrom(from, count), description: `${query.from} to ${query.to}, by day (UTC)` };
}

/** The bucket a usage row's hour falls in. */
export function bucketOf(period: Pick<UsagePeriod, 'bucket'>, hour: string): string {
  return period.bucket === 'hour' ? hour : hour.slice(0, 10);
}

/** The query string that selects this period and grouping again (for links and the CSV). */
export function periodQuery(period: UsagePeriod, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams({ period: period.name, ...(period.name === 'custom' ? { from: period.from, to: period.to } : {}), group: period.group, ...extra });
  return params.toString();
}
