// `gwctl proxy cache`: the proxy's quota-status files, per session, each figure as its own measure.
// Spec 9: hit rate, cache read/create tokens and the bill are different things; no saving is promised.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { quotaStatusDir } from '../paths.ts';

export const CACHE_NOTE =
  'Cache hit rate, cache read and cache creation token counts, and the final bill or subscription quota use are three different measures and must not be equated. The proxy improves request stability only; it does not make resumed sessions free or promise any fixed saving.';

export interface SessionCache {
  session: string;
  file: string;
  /** Percent with one decimal as the proxy wrote it, or null when it wrote "N/A" or nothing. */
  hitRate: string | null;
  cacheRead: number | null;
  cacheCreation: number | null;
  ttlTier: string | null;
  /** When the proxy observed it (its timestamp, else the file's modification time). */
  observedAt: string;
  requestCount: number | null;
}

export interface AccountObservation {
  file: string;
  status: string | null;
  fiveHourPct: number | null;
  sevenDayPct: number | null;
  observedAt: string;
}

export interface CacheReport {
  schemaVersion: 1;
  dir: string;
  exists: boolean;
  sessions: SessionCache[];
  account: AccountObservation | null;
  /** Files that could not be read, with the reason. */
  problems: string[];
  note: string;
}

function readJson(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

export function readCacheReport(env: NodeJS.ProcessEnv): CacheReport {
  const dir = quotaStatusDir(env);
  const problems: string[] = [];
  let exists = false;
  try {
    exists = statSync(dir).isDirectory();
  } catch {
    exists = false;
  }
  const sessions: SessionCache[] = [];
  let names: string[] = [];
  try {
    names = readdirSync(join(dir, 'sessions')).filter((n) => n.endsWith('.json')).sort();
  } catch {
    names = [];
  }
  for (const name of names) {
    const file = join(dir, 'sessions', name);
    try {
      const record = readJson(file);
      const cache = (record.cache ?? {}) as Record<string, unknown>;
      const hit = str(cache.hit_rate);
      sessions.push({
        session: str(record.session_id) ?? name.replace(/\.json$/, ''),
        file,
        hitRate: hit === 'N/A' ? null : hit,
        cacheRead: num(cache.cache_read),
        cacheCreation: num(cache.cache_creation),
        ttlTier: str(cache.ttl_tier),
        observedAt: str(cache.timestamp) ?? str(record.timestamp) ?? statSync(file).mtime.toISOString(),
        requestCount: num(record.request_count),
      });
    } catch (error) {
      problems.push(`${file}: ${(error as Error).message}`);
    }
  }
  sessions.sort((a, b) => b.observedAt.localeCompare(a.observedAt));
  let account: AccountObservation | null = null;
  const accountFile = join(dir, 'account.json');
  try {
    const record = readJson(accountFile);
    const pct = (key: string) => num(((record[key] ?? {}) as Record<string, unknown>).pct);
    account = { file: accountFile, status: str(record.status), fiveHourPct: pct('five_hour'), sevenDayPct: pct('seven_day'), observedAt: str(record.timestamp) ?? statSync(accountFile).mtime.toISOString() };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') problems.push(`${accountFile}: ${(error as Error).message}`);
  }
  return { schemaVersion: 1, dir, exists, sessions, account, problems, note: CACHE_NOTE };
}
