// A latency histogram by route, counted in a few numbers per route on the request path and turned
// into prom-client's exposition shape only when /metrics is scraped. prom-client's own Histogram
// builds and hashes a label object on every observation (about a microsecond a call, two calls a request).
import type { Metric } from 'prom-client';

interface RouteCounts {
  /** Observations per bucket (not cumulative); the last slot is above every bound. */
  buckets: Float64Array;
  sum: number;
  count: number;
}

export class RouteHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly routes = new Map<string, RouteCounts>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
  ) {}

  observe(route: string, value: number): void {
    let counts = this.routes.get(route);
    if (counts === undefined) {
      counts = { buckets: new Float64Array(this.bounds.length + 1), sum: 0, count: 0 };
      this.routes.set(route, counts);
    }
    const bounds = this.bounds;
    let at = 0;
    while (at < bounds.length && value > bounds[at]!) at += 1;
    counts.buckets[at]! += 1;
    counts.sum += value;
    counts.count += 1;
  }

  /** As prom-client's metrics: `registry.resetMetrics()` empties it. */
  reset(): void {
    this.routes.clear();
  }

  /** prom-client's metric interface: cumulative `_bucket` lines per route, then `_sum` and `_count`. */
  async get(): Promise<Awaited<ReturnType<Metric['get']>>> {
    const values: Array<{ labels: Record<string, string | number>; value: number; metricName: string }> = [];
    for (const [route, counts] of this.routes) {
      let cumulative = 0;
      this.bounds.forEach((bound, i) => {
        cumulative += counts.buckets[i]!;
        values.push({ labels: { le: bound, route }, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { le: '+Inf', route }, value: counts.count, metricName: `${this.name}_bucket` });
      values.push({ labels: { route }, value: counts.sum, metricName: `${this.name}_sum` });
      values.push({ labels: { route }, value: counts.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator } as unknown as Awaited<ReturnType<Metric['get']>>;
  }

  /** Registered under its name like any prom-client metric. */
  asMetric(): Metric {
    return this as unknown as Metric;
  }
}
