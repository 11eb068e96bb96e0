// Turns hourly usage rows into what the pages show: per-key / per-model / per-session totals, the
// stacked series of the usage charts, and names for keys.
import type { ApiKeyRecord } from '../store/keys-repo.ts';
import type { SessionUsageRow, UsageRow } from '../store/usage-repo.ts';

export interface Totals {
  requests: number;
  inputTokens: number;
  outputTokens: number;
  errors: number;
  /** Cost of the priced requests, micro-units of the price table's currency. */
  costMicros?: number;
  /** Requests without a price: while there are any, the total cost is unknown. */
  unpriced?: number;
}

const empty = (): Totals => ({ requests: 0, inputTokens: 0, outputTokens: 0, errors: 0, costMicros: 0, unpriced: 0 });

function add(into: Totals, row: Totals): void {
  into.requests += row.requests;
  into.inputTokens += row.inputTokens;
  into.outputTokens += row.outputTokens;
  into.errors += row.errors;
  into.costMicros = (into.costMicros ?? 0) + (row.costMicros ?? 0);
  into.unpriced = (into.unpriced ?? 0) + (row.unpriced ?? 0);
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

export interface StackedSeries {
  id: string;
  name: string;
  requests: number[];
  tokens: number[];
  errors: number[];
  /** Micro-units of the price table's currency (the priced requests'). */
  cost: number[];
  total: Totals;
}

/** Series shown one by one; the rest are added up as "Others", so colours stay distinguishable. */
export const MAX_SERIES = 5;

/**
 * Per bucket and per group (model or key), the requests, tokens (input + output) and errors of the
 * rows that fall in the buckets, the busiest groups first, the smaller ones as one "Others".
 */
export function stackedSeries(rows: UsageRow[], buckets: string[], bucketOf: (hour: string) => string, groupOf: (row: UsageRow) => string, nameOf: (id: string) => string): StackedSeries[] {
  const index = new Map(buckets.map((b, i) => [b, i]));
  const groups = new Map<string, StackedSeries>();
  const blank = (id: string, name: string): StackedSeries => ({ id, name, requests: buckets.map(() => 0), tokens: buckets.map(() => 0), errors: buckets.map(() => 0), cost: buckets.map(() => 0), total: empty() });
  const addTo = (s: StackedSeries, i: number, t: Totals) => {
    s.requests[i]! += t.requests;
    s.tokens[i]! += t.inputTokens + t.outputTokens;
    s.errors[i]! += t.errors;
    s.cost[i]! += t.costMicros ?? 0;
    add(s.total, t);
  };
  for (const row of rows) {
    const i = index.get(bucketOf(row.hour));
    if (i === undefined) continue;
    const id = groupOf(row);
    let s = groups.get(id);
    if (!s) groups.set(id, (s = blank(id, nameOf(id))));
    addTo(s, i, row);
  }
  const sorted = [...groups.values()].sort((a, b) => b.total.requests - a.total.requests || b.total.inputTokens + b.total.outputTokens - (a.total.inputTokens + a.total.outputTokens) || a.name.localeCompare(b.name));
  if (sorted.length <= MAX_SERIES + 1) return sorted;
  const others = blank('(others)', `${sorted.length - MAX_SERIES} others`);
  for (const s of sorted.slice(MAX_SERIES)) {
    for (let i = 0; i < buckets.length; i += 1) addTo(others, i, { requests: s.requests[i]!, inputTokens: s.tokens[i]!, outputTokens: 0, errors: s.errors[i]!, costMicros: s.cost[i]! });
    others.total.unpriced = (others.total.unpriced ?? 0) + (s.total.unpriced ?? 0);
  }
  return [...sorted.slice(0, MAX_SERIES), others];
}

/**
 * Names keys for the pages: "laptop sk-…a1b2", "Web apps (no key)", "device sign-in <id>" (the
 * access tokens of one `gwctl login` or Claude Code sign-in) or "deleted key <id>".
 */
export function keyNamer(keys: ApiKeyRecord[]): (id: string) => string {
  const names = new Map(keys.map((k) => [k.id, `${k.name ?? '(no name)'} ${k.hint}`]));
  return (id) => (id === '' ? 'Web apps (no key)' : (names.get(id) ?? (id.startsWith('sgn_') ? `device sign-in ${id}` : `deleted key ${id}`)));
}
