// Load and latency for the translation benchmark: autocannon 9 for throughput (N keep-alive
// connections, fixed time), and one-at-a-time requests on one keep-alive connection for latency,
// interleaved across targets, timed to the last body byte, with the gateway's own
// x-gateway-overhead-ms header kept beside each timing.
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { Client } from 'undici';

interface AutocannonResult {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
}
type Autocannon = (options: Record<string, unknown>) => PromiseLike<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

export interface Target {
  name: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

export async function throughput(target: Target, connections: number, seconds: number): Promise<{ rps: number; ok: number; failed: number }> {
  const result = await autocannon({ url: target.url, method: 'POST', headers: target.headers, body: target.body, connections, pipelining: 1, duration: seconds, timeout: 10 });
  return { rps: result['2xx'] / result.duration, ok: result['2xx'], failed: result.non2xx + result.errors + result.timeouts };
}

export interface Sample {
  ms: number[];
  overheadMs: number[];
}

export async function sequential(targets: Target[], warmup: number, count: number): Promise<Map<string, Sample>> {
  const clients = targets.map((t) => ({ target: t, path: new URL(t.url).pathname, client: new Client(new URL(t.url).origin, { keepAliveTimeout: 60_000 }) }));
  const out = new Map(targets.map((t) => [t.name, { ms: [] as number[], overheadMs: [] as number[] }]));
  try {
    for (let i = 0; i < warmup + count; i += 1) {
      for (let j = 0; j < clients.length; j += 1) {
        const c = clients[(i + j) % clients.length]!;
        const started = performance.now();
        const response = await c.client.request({ method: 'POST', path: c.path, headers: c.target.headers, body: c.target.body });
        for await (const _chunk of response.body) {
          // read to the last byte
        }
        const elapsed = performance.now() - started;
        if (response.statusCode !== 200) throw new Error(`${c.target.name} answered ${response.statusCode}`);
        if (i < warmup) continue;
        const sample = out.get(c.target.name)!;
        sample.ms.push(elapsed);
        sample.overheadMs.push(Number(response.headers['x-gateway-overhead-ms']));
      }
    }
  } finally {
    await Promise.all(clients.map((c) => c.client.close()));
  }
  return out;
}

export async function fetchOnce(target: Target): Promise<{ status: number; text: string; headers: Record<string, unknown> }> {
  const url = new URL(target.url);
  const client = new Client(url.origin);
  try {
    const response = await client.request({ method: 'POST', path: url.pathname, headers: target.headers, body: target.body });
    return { status: response.statusCode, text: await response.body.text(), headers: response.headers };
  } finally {
    await client.close();
  }
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export const median = (values: number[]) => percentile(values, 50);
