// The local proxy's health endpoint: 200 {"status":"ok"} is the only usable answer. A busy machine
// can keep a healthy proxy from answering within a second or two, so the probe waits generously,
// asks once more after a timeout (never after a refused connection: nothing listens), and calls an
// answer that took long "slow" instead of reporting the proxy down.
import type { HttpGet, HttpOutcome } from './http-get.ts';

/** Bound for one /health attempt when the caller gives none. */
export const HEALTH_TIMEOUT_MS = 5_000;
/** An answer later than this is reported as slow (the proxy works, the machine or proxy is busy). */
export const HEALTH_SLOW_MS = 1_500;

export type ProxyState = 'ok' | 'degraded' | 'unhealthy' | 'foreign' | 'down';

export interface ProxyHealth {
  state: ProxyState;
  healthUrl: string;
  /** HTTP status, when the proxy answered at all. */
  status?: number;
  /** Names or files of extensions a degraded proxy reports as failed. */
  failedExtensions: string[];
  hint?: string;
  /** One line saying what was seen, for reports. */
  observed: string;
  /** It answered, but only after HEALTH_SLOW_MS or a second attempt. */
  slow?: boolean;
}

export interface HealthProbeOptions {
  /** Attempts in all when an attempt times out (default 2). */
  attempts?: number;
  slowMs?: number;
  now?: () => number;
}

function extensionName(entry: unknown): string {
  if (typeof entry === 'string') return entry;
  const e = entry as { name?: unknown; file?: unknown };
  return String(e?.name ?? e?.file ?? '?');
}

const timedOut = (outcome: HttpOutcome) => outcome.kind === 'error' && (outcome.failure.kind === 'connect-timeout' || outcome.failure.kind === 'timeout');

export async function probeProxyHealth(http: HttpGet, proxyUrl: string, timeoutMs: number = HEALTH_TIMEOUT_MS, options: HealthProbeOptions = {}): Promise<ProxyHealth> {
  const healthUrl = `${proxyUrl.replace(/\/+$/, '')}/health`;
  const now = options.now ?? Date.now;
  const attempts = Math.max(1, options.attempts ?? 2);
  const began = now();
  let outcome: HttpOutcome = await http({ url: healthUrl, headers: { accept: 'application/json' }, timeoutMs });
  let tries = 1;
  while (timedOut(outcome) && tries < attempts) {
    outcome = await http({ url: healthUrl, headers: { accept: 'application/json' }, timeoutMs });
    tries++;
  }
  const took = now() - began;
  const base = { healthUrl, failedExtensions: [] as string[] };
  if (outcome.kind === 'error') {
    const { failure } = outcome;
    const what = timedOut(outcome) ? `no answer within ${timeoutMs} ms${tries > 1 ? ` (${tries} attempts)` : ''}` : `${failure.code}`;
    return { ...base, state: 'down', observed: `GET ${healthUrl} → ${what}` };
  }
  if (tries > 1 || took > (options.slowMs ?? HEALTH_SLOW_MS)) {
    const health = classify(outcome, base);
    return { ...health, slow: true, observed: `${health.observed} (slow: answered after ${took} ms${tries > 1 ? `, attempt ${tries}` : ''})` };
  }
  return classify(outcome, base);
}

function classify(outcome: Extract<HttpOutcome, { kind: 'response' }>, base: { healthUrl: string; failedExtensions: string[] }): ProxyHealth {
  const { healthUrl } = base;
  let body: { status?: unknown; failed_extensions?: unknown; hint?: unknown } | undefined;
  try {
    body = JSON.parse(outcome.body);
  } catch {
    body = undefined;
  }
  const status = outcome.status;
  if (status === 200 && body?.status === 'ok') return { ...base, state: 'ok', status, observed: `GET ${healthUrl} → 200 {"status":"ok"}` };
  if (status === 503 && body?.status === 'degraded') {
    const failed = Array.isArray(body.failed_extensions) ? body.failed_extensions.map(extensionName) : [];
    const hint = typeof body.hint === 'string' ? body.hint : undefined;
    const list = failed.length ? ` (failed extensions: ${failed.join(', ')})` : '';
    return { ...base, state: 'degraded', status, failedExtensions: failed, hint, observed: `GET ${healthUrl} → 503 degraded${list}` };
  }
  if (status === 200) {
    const snippet = outcome.body.replace(/\s+/g, ' ').slice(0, 60);
    return { ...base, state: 'foreign', status, observed: `GET ${healthUrl} → 200 but not {"status":"ok"} (${snippet || 'empty body'})` };
  }
  return { ...base, state: 'unhealthy', status, observed: `GET ${healthUrl} → ${status}` };
}
