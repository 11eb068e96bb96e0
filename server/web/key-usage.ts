// What the keys page and its JSON API show of each key's use: this month's requests and tokens, and
// its requests per day over the last 14 days (the sparkline), from the hourly usage rows.
import type { GatewayDeps } from '../gateway-deps.ts';
import { monthStartHour } from './format.ts';
import { sparkDays, SPARK_DAYS, type SparkDay } from './sparkline.ts';

export interface KeyUsage {
  month: Map<string, { requests: number; tokens: number }>;
  spark(keyId: string): SparkDay[];
}

export async function keyUsage(deps: GatewayDeps, userId: string, now: number): Promise<KeyUsage> {
  await deps.usage.flush().catch(() => undefined);
  const monthStart = monthStartHour(new Date(now));
  const sparkStart = `${new Date(now - (SPARK_DAYS - 1) * 86_400_000).toISOString().slice(0, 10)}T00:00Z`;
  const rows = await deps.store.usage.rows({ userId, sinceHour: monthStart < sparkStart ? monthStart : sparkStart });
  const month = new Map<string, { requests: number; tokens: number }>();
  const daily = new Map<string, Map<string, number>>();
  for (const r of rows) {
    if (r.hour >= monthStart) {
      const t = month.get(r.keyId) ?? { requests: 0, tokens: 0 };
      t.requests += r.requests;
      t.tokens += r.inputTokens + r.outputTokens;
      month.set(r.keyId, t);
    }
    if (r.hour >= sparkStart) {
      const days = daily.get(r.keyId) ?? new Map<string, number>();
      const day = r.hour.slice(0, 10);
      days.set(day, (days.get(day) ?? 0) + r.requests);
      daily.set(r.keyId, days);
    }
  }
  return { month, spark: (keyId) => sparkDays(daily.get(keyId) ?? new Map(), now) };
}
