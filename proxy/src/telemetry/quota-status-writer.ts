import { readdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { CoalescingWriter } from '../util/coalescing-writer.ts';
import { BoundedMap } from '../transforms/shared/bounded-map.ts';
import { isObject, num, type JsonObject } from '../util/json-value.ts';
import type { HeaderMap, RequestMeta } from '../transforms/types.ts';
import { headerValue } from '../transforms/shared/session-id.ts';
import { quotaStatusDir, readSessionFile, sessionFilePath } from './session-file.ts';

const RESET_HEADERS = [
  'anthropic-ratelimit-unified-5h-reset',
  'anthropic-ratelimit-unified-7d-reset',
  'anthropic-ratelimit-unified-reset',
  'anthropic-ratelimit-unified-overage-reset',
];
const CLEANUP_INTERVAL_MS = 60_000;
// Key order of sessions/<id>.json as readers of 4.2.1 files know it.
const SESSION_KEYS = [
  'context_tokens',
  'thinking_block_count',
  'thinking_block_max',
  'first_seen',
  'request_count',
  'thinking_desync_risk',
  'thinking_blocks_dropped',
  'thinking_blocks_dropped_v2',
  'tools_hash_baseline',
  'auto_1m_detected',
  'auto_1m_action',
  'auto_1m_advice',
  'requested_model',
  'served_model',
  'model_divergence_recent',
  'model_divergence_sticky',
  'model_divergence_first_seen',
];

export interface CacheFigures {
  ttl_tier: string;
  cache_creation: number;
  cache_read: number;
  ephemeral_1h: number;
  ephemeral_5m: number;
  hit_rate: string;
  timestamp: string;
}

/**
 * Hit rate is the share of prompt tokens read from cache. It says nothing about the bill: spec 9
 * asks that read and create counts are reported separately and no saving is claimed.
 */
export function cacheFigures(meta: RequestMeta, now: Date): CacheFigures {
  const start = meta.startUsage ?? {};
  const delta = meta.deltaUsage ?? {};
  const pick = (key: string): number => num(start[key]) || num(delta[key]);
  const read = pick('cache_read_input_tokens');
  const creation = pick('cache_creation_input_tokens');
  const input = pick('input_tokens');
  const breakdown = isObject(start.cache_creation) ? start.cache_creation : isObject(delta.cache_creation) ? delta.cache_creation : null;
  // 4.2.1 guessed the tier and labelled 5m writes as 1h; the per-ttl breakdown, when sent, is the truth.
  const e1h = breakdown ? num(breakdown.ephemeral_1h_input_tokens) : creation;
  const e5m = breakdown ? num(breakdown.ephemeral_5m_input_tokens) : 0;
  let tier = 'unknown';
  if (breakdown && e1h > 0) tier = '1h';
  else if (breakdown && e5m > 0) tier = '5m';
  else if (read > 0) tier = meta.ttlTier ?? '1h';
  else if (creation > 0) tier = '5m';
  const total = read + creation + input;
  return {
    ttl_tier: tier,
    cache_creation: creation,
    cache_read: read,
    ephemeral_1h: e1h,
    ephemeral_5m: e5m,
    hit_rate: total > 0 ? ((read / total) * 100).toFixed(1) : 'N/A',
    timestamp: now.toISOString(),
  };
}

function ratio(headers: HeaderMap, name: string): { utilization: number | null; pct: number | null; resets_at: string | null } {
  const util = headerValue(headers, `anthropic-ratelimit-unified-${name}-utilization`);
  const reset = headerValue(headers, `anthropic-ratelimit-unified-${name}-reset`);
  const value = util !== undefined && util.trim() !== '' && Number.isFinite(Number(util)) ? Number(util) : null;
  const resetNumber = reset !== undefined && /^\d+$/.test(reset.trim()) ? Number(reset.trim()) : null;
  return {
    utilization: value,
    pct: value === null ? null : Math.round(value * 100),
    resets_at: resetNumber !== null ? new Date(resetNumber * 1000).toISOString() : reset ?? null,
  };
}

function isPeakHour(now: Date): boolean {
  const day = now.getUTCDay();
  const hour = now.getUTCHours();
  return day >= 1 && day <= 5 && hour >= 13 && hour < 19;
}

export function accountStatus(headers: HeaderMap, now: Date): JsonObject {
  const allHeaders: JsonObject = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && (name.startsWith('anthropic-') || name === 'cf-ray' || name === 'request-id')) allHeaders[name] = value;
  }
  return {
    five_hour: ratio(headers, '5h'),
    seven_day: ratio(headers, '7d'),
    status: headerValue(headers, 'anthropic-ratelimit-unified-status') ?? headerValue(headers, 'anthropic-ratelimit-unified-5h-status') ?? 'unknown',
    overage_status: headerValue(headers, 'anthropic-ratelimit-unified-overage-status') ?? 'unknown',
    peak_hour: isPeakHour(now),
    all_headers: allHeaders,
    timestamp: now.toISOString(),
  };
}

export function hasAccountHeaders(headers: HeaderMap): boolean {
  return RESET_HEADERS.some((name) => headers[name] !== undefined);
}

/**
 * Writes ~/.claude/quota-status/{account.json,sessions/<id>.json} for the HOME it was given. Records
 * are built on the request path from memory (a session file is read once, when the session is
 * first seen); the files are written asynchronously and coalesced per file.
 */
export class QuotaStatusWriter {
  private firstWriteDone = false;
  private lastCleanup = 0;
  private readonly records = new BoundedMap<string, JsonObject>(2048);
  private readonly files: CoalescingWriter;

  constructor(
    private readonly homeDir: string,
    private readonly ttlDays: number,
    onError: (path: string, error: unknown) => void,
  ) {
    // Readers (status lines) poll about once a second; more frequent writes would only cost latency.
    this.files = new CoalescingWriter(onError, 500);
  }

  writeSession(meta: RequestMeta, now: Date): void {
    const path = sessionFilePath(this.homeDir, meta.sessionId);
    const previous = this.records.get(path) ?? readSessionFile(this.homeDir, meta.sessionId);
    const { health, sanitize, auto1m, divergence } = meta.session;
    // Values saved by earlier requests (e.g. a v2 baseline) survive requests that did not set them.
    const merged: JsonObject = { ...previous, ...health, ...sanitize, ...auto1m, ...divergence };
    const record: JsonObject = { cache: cacheFigures(meta, now) };
    for (const key of SESSION_KEYS) if (merged[key] !== undefined) record[key] = merged[key];
    record.timestamp = now.toISOString();
    record.session_id = meta.sessionId ?? 'unknown';
    this.records.set(path, record);
    this.prepare();
    this.files.write(path, `${JSON.stringify(record, null, 2)}\n`);
    this.cleanup(now);
  }

  writeAccount(headers: HeaderMap, now: Date): void {
    this.prepare();
    this.files.write(join(quotaStatusDir(this.homeDir), 'account.json'), `${JSON.stringify(accountStatus(headers, now), null, 2)}\n`);
  }

  flush(): Promise<void> {
    return this.files.flush();
  }

  private prepare(): void {
    if (this.firstWriteDone) return;
    this.firstWriteDone = true;
    // The single shared file of old versions was overwritten by concurrent sessions; it is replaced.
    unlink(join(this.homeDir, '.claude', 'quota-status.json')).catch(() => {});
  }

  private cleanup(now: Date): void {
    if (now.getTime() - this.lastCleanup < CLEANUP_INTERVAL_MS) return;
    this.lastCleanup = now.getTime();
    const dir = join(quotaStatusDir(this.homeDir), 'sessions');
    const cutoff = now.getTime() - this.ttlDays * 86_400_000;
    void (async () => {
      const names = await readdir(dir).catch(() => [] as string[]);
      for (const name of names) {
        const path = join(dir, name);
        try {
          if (name.endsWith('.json') && (await stat(path)).mtimeMs < cutoff) await unlink(path);
        } catch {
          // Another proxy may have removed it first.
        }
      }
    })();
  }
}
