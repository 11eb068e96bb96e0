// Turns hourly usage rows into per-day series and per-key / per-model totals for the pages.
import type { SessionUsageRow, UsageRow } from '../store/usage-repo.ts';

export interface Totals {
  requests: number;
  inputTokens: number;
  outputTokens: number;
  errors: number;
}

const empty = (): Totals => ({ requests: 0, inputTokens: 0, outputTokens: 0, errors: 0 });

function add(into: Totals, row: Totals): void {
  into.requests += row.requests;
  into.inputTokens += row.inputTokens;
  into.outputTokens += row.outputTokens;
  into.errors += row.errors;
}

export function daysBack(days: number, now = new Date()): string[] {
  return Array.from({ length: days }, (_, i) => new Date(now.getTime() - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10));
}

export function summarize(rows: UsageRow[], days: string[]) {
  const perDay = new Map(days.map((d) => [d, empty()]));
  const perKey = new Map<string, Totals>();
  const perModel = new Map<string, Totals>();
  const perUser = new Map<string, Totals>();
  const total = empty();
  for (const row of rows) {
    const day = perDay.get(row.hour.slice(0, 10));
    if (day) add(day, row);
    for (const [map, id] of [[perKey, row.keyId], [perModel, row.model], [perUser, row.userId]] as const) {
      if (!map.has(id)) map.set(id, empty());
      add(map.get(id)!, row);
    }
    add(total, row);
  }
  return { perDay, perKey, perModel, perUser, total };
}

/** Totals per client session, the most recently active first, at most `limit` of them. */
export function perSession(rows: SessionUsageRow[], limit: number): Array<{ sessionId: string; keyId: string; lastHour: string; totals: Totals }> {
  const sessions = new Map<string, { sessionId: string; keyId: string; lastHour: string; totals: Totals }>();
  for (const row of rows) {
    const entry = sessions.get(row.sessionId) ?? { sessionId: row.sessionId, keyId: row.keyId, lastHour: row.hour, totals: empty() };
    if (row.hour > entry.lastHour) entry.lastHour = row.hour;
    add(entry.totals, row);
    sessions.set(row.sessionId, entry);
  }
  return [...sessions.values()].sort((a, b) => b.lastHour.localeCompare(a.lastHour)).slice(0, limit);
}
