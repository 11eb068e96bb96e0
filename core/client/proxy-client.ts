// The local proxy's health endpoint (spec 2.3, 4.4): 200 {"status":"ok"} is the only usable answer.
import type { HttpGet } from './http-get.ts';

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
}

function extensionName(entry: unknown): string {
  if (typeof entry === 'string') return entry;
  const e = entry as { name?: unknown; file?: unknown };
  return String(e?.name ?? e?.file ?? '?');
}

export async function probeProxyHealth(http: HttpGet, proxyUrl: string, timeoutMs: number): Promise<ProxyHealth> {
  const healthUrl = `${proxyUrl.replace(/\/+$/, '')}/health`;
  const outcome = await http({ url: healthUrl, headers: { accept: 'application/json' }, timeoutMs });
  const base = { healthUrl, failedExtensions: [] as string[] };
  if (outcome.kind === 'error') {
    const { failure } = outcome;
    const what = failure.kind === 'connect-timeout' || failure.kind === 'timeout' ? `no answer within ${timeoutMs} ms` : `${failure.code}`;
    return { ...base, state: 'down', observed: `GET ${healthUrl} → ${what}` };
  }
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
