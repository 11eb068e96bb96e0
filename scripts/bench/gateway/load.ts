// Load generation for the gateway benchmark, in the benchmark's own process:
// - throughput: autocannon 9 with N keep-alive connections for a fixed time; latencies are taken
//   from autocannon's per-response timings (float ms) rather than its whole-millisecond histogram;
// - sequential: one request at a time on one keep-alive undici connection, no queueing, timed
//   from sending to the last body byte.
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { Client } from 'undici';

/** The part of autocannon 9's API used here (the package ships no types). */
interface AutocannonOptions {
  url: string;
  method: 'POST';
  headers: Record<string, string>;
  body: string;
  connections: number;
  pipelining: number;
  duration: number;
  timeout: number;
}
interface AutocannonResult {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
}
interface AutocannonInstance extends PromiseLike<AutocannonResult> {
  on(event: 'response', listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void): this;
}
type Autocannon = (options: AutocannonOptions) => AutocannonInstance;

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

export interface Target {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface LoadResult {
  rps: number;
  ok: number;
  failed: number;
  seconds: number;
  /** Latency of every 2xx response, ms, unsorted. */
  latencies: Float64Array;
}

export async function runLoad(target: Target, connections: number, seconds: number): Promise<LoadResult> {
  let latencies = new Float64Array(1 << 16);
  let count = 0;
  const instance = autocannon({
    url: target.url,
    method: 'POST',
    headers: target.headers,
    body: target.body,
    connections,
    pipelining: 1,
    duration: seconds,
    timeout: 10,
  });
  instance.on('response', (_client, status, _bytes, responseTime) => {
    if (status < 200 || status >= 300) return;
    if (count === latencies.length) {
      const grown = new Float64Array(latencies.length * 2);
      grown.set(latencies);
      latencies = grown;
    }
    latencies[count++] = responseTime;
  });
  const result = await instance;
  return {
    rps: result['2xx'] / result.duration,
    ok: result['2xx'],
    failed: result.non2xx + result.errors + result.timeouts,
    seconds: result.duration,
    latencies: latencies.subarray(0, count),
  };
}

export interface SequentialTarget extends Target {
  name: string;
}

/**
 * Sends `count` requests one at a time to each target, interleaved (a, b, c, a, b, c, ...) so
 * that drift over time hits every target alike. Returns per-target latencies in ms.
 */
export async function runSequential(targets: SequentialTarget[], warmup: number, count: number): Promise<Map<string, Float64Array>> {
  const clients = targets.map((t) => {
    const url = new URL(t.url);
    return { target: t, path: url.pathname + url.search, client: new Client(url.origin, { pipelining: 1, keepAliveTimeout: 60_000 }) };
  });
  const out = new Map(targets.map((t) => [t.name, new Float64Array(count)]));
  try {
    for (let i = 0; i < warmup + count; i++) {
      for (let j = 0; j < clients.length; j++) {
        // Rotate who goes first, so no target always follows the same one.
        const c = clients[(i + j) % clients.length];
        const started = performance.now();
        try {
          const response = await c.client.request({ method: 'POST', path: c.path, headers: c.target.headers, body: c.target.body });
          for await (const _chunk of response.body) {
            // drain
          }
          if (response.statusCode !== 200) throw new Error(`sequential request answered ${response.statusCode}`);
        } catch (error) {
          throw new Error(`${c.target.name}, sequential request ${i + 1}: ${(error as Error).message}`, { cause: error });
        }
        const elapsed = performance.now() - started;
        if (i >= warmup) out.get(c.target.name)![i - warmup] = elapsed;
      }
    }
  } finally {
    await Promise.all(clients.map((c) => c.client.close()));
  }
  return out;
}

/** One request, the whole answer: to check each path works (and relays the bytes) before measuring. */
export async function fetchOnce(target: Target): Promise<{ status: number; body: Buffer; contentType: string }> {
  const url = new URL(target.url);
  const client = new Client(url.origin);
  try {
    const response = await client.request({ method: 'POST', path: url.pathname + url.search, headers: target.headers, body: target.body });
    const chunks: Buffer[] = [];
    for await (const chunk of response.body) chunks.push(chunk as Buffer);
    return { status: response.statusCode, body: Buffer.concat(chunks), contentType: String(response.headers['content-type'] ?? '') };
  } finally {
    await client.close();
  }
}
