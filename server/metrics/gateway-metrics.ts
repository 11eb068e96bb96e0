// The gateway's Prometheus metrics: requests by route, status, model and provider; latency (total
// and the gateway's own overhead); upstream failures and retries; open streams; rate-limited
// requests; the usage buffer and its flush failures; key lookups that went to the database; and
// Node's own process metrics, the event-loop delay among them. Served at GET /metrics behind a token.
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { RouteHistogram } from './route-histogram.ts';
import { UsageCounts } from './usage-counts.ts';
import type { UsageClasses } from '../protocols/canonical/usage.ts';
import { drainDroppedFeatures } from '../providers/cloud-claude/dropped-features.ts';

export interface MetricsSources {
  pendingUsageBuckets: () => number;
  usageFlushFailures: () => number;
  /** The request log's buffer: entries waiting, and entries dropped because it was full. */
  requestLog?: () => { buffered: number; dropped: number };
  /** The usage journal: segment files on disk (more than a few: the database is behind), appends that failed. */
  usageJournal?: () => { segments: number; appendFailures: number };
  databaseKeyLookups: () => number;
  openResponses: () => number;
  /** Each provider and whether its circuit is open (cooling down after failures). */
  providersCooling: () => Array<{ provider: string; cooling: boolean }>;
}

const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

export class GatewayMetrics {
  readonly registry = new Registry();
  /** Answered requests by route, status, model and provider, counted since the last scrape (see countRequest). */
  private readonly requestCounts = new Map<string, { labels: { route: string; status: string; model: string; provider: string }; pending: number }>();
  private readonly requests = new Counter({
    name: 'gwctl_requests_total',
    help: 'API requests answered, by route, status, model and provider.',
    labelNames: ['route', 'status', 'model', 'provider'],
    registers: [this.registry],
    collect: () => {
      for (const entry of this.requestCounts.values()) {
        if (entry.pending === 0) continue;
        this.requests.inc(entry.labels, entry.pending);
        entry.pending = 0;
      }
    },
  });
  readonly duration = new RouteHistogram('gwctl_request_duration_seconds', 'Time from request to the end of the answer, by route.', LATENCY_BUCKETS);
  readonly overhead = new RouteHistogram('gwctl_gateway_overhead_seconds', "The gateway's own time per request (total minus time waiting on upstreams), by route.", LATENCY_BUCKETS);
  readonly upstreamFailures = new Counter({ name: 'gwctl_upstream_failures_total', help: 'Upstream calls that failed (connection, timeout, 429/5xx before the answer started), by provider and kind.', labelNames: ['provider', 'kind'], registers: [this.registry] });
  readonly retries = new Counter({ name: 'gwctl_upstream_retries_total', help: 'Extra upstream calls made for a request (retries and fallbacks), by route.', labelNames: ['route'], registers: [this.registry] });
  /** Streams being relayed now: a plain count (no prom-client call per stream), read when scraped. */
  readonly openStreams = {
    count: 0,
    inc(): void {
      this.count += 1;
    },
    dec(): void {
      this.count -= 1;
    },
  };
  /** Tokens and cost by model (never by key), counted in plain maps and added when scraped. */
  private readonly usageCounts = new UsageCounts();
  private readonly tokens = new Counter({
    name: 'gwctl_tokens_total',
    help: 'Tokens billed, by model and class (input, output, cache_read, cache_write_5m, cache_write_1h; reasoning is part of output and counted apart too).',
    labelNames: ['model', 'class'],
    registers: [this.registry],
    collect: () => this.usageCounts.drainTokens((labels, n) => this.tokens.inc(labels, n)),
  });
  private readonly cost = new Counter({
    name: 'gwctl_cost_micros_total',
    help: 'Cost of priced requests in micro-units (1e-6) of the price table currency, by model.',
    labelNames: ['model', 'currency'],
    registers: [this.registry],
    collect: () => this.usageCounts.drainCost((labels, n) => this.cost.inc(labels, n)),
  });
  private readonly unpriced = new Counter({
    name: 'gwctl_unpriced_requests_total',
    help: 'Requests that reached a provider for a model without a price (their cost is unknown), by model.',
    labelNames: ['model'],
    registers: [this.registry],
    collect: () => this.usageCounts.drainUnpriced((labels, n) => this.unpriced.inc(labels, n)),
  });
  private readonly droppedFeatures = new Counter({
    name: 'gwctl_upstream_features_dropped_total',
    help: 'Client betas and body fields a cloud upstream does not accept, dropped from requests to it, by provider, kind (beta, field) and name.',
    labelNames: ['provider', 'kind', 'name'],
    registers: [this.registry],
    collect: () => {
      for (const { feature, count } of drainDroppedFeatures()) this.droppedFeatures.inc({ provider: feature.provider, kind: feature.kind, name: feature.name }, count);
    },
  });
  readonly rateLimited = new Counter({ name: 'gwctl_rate_limited_total', help: 'Requests refused by the per-key rate limit.', registers: [this.registry] });

  constructor(sources: MetricsSources) {
    this.registry.registerMetric(this.duration.asMetric());
    this.registry.registerMetric(this.overhead.asMetric());
    collectDefaultMetrics({ register: this.registry, prefix: 'gwctl_' });
    new Gauge({ name: 'gwctl_usage_buffer_buckets', help: 'Usage aggregates waiting to be written to the database.', registers: [this.registry], collect() { this.set(sources.pendingUsageBuckets()); } });
    new Gauge({ name: 'gwctl_usage_flush_failures', help: 'Usage writes that failed (retried with the next flush) since start.', registers: [this.registry], collect() { this.set(sources.usageFlushFailures()); } });
    const requestLog = sources.requestLog;
    if (requestLog) {
      new Gauge({ name: 'gwctl_request_log_buffered', help: 'Request log entries waiting to be written to the database.', registers: [this.registry], collect() { this.set(requestLog().buffered); } });
      new Gauge({ name: 'gwctl_request_log_dropped', help: 'Request log entries dropped since start because the buffer was full (the database was away).', registers: [this.registry], collect() { this.set(requestLog().dropped); } });
    }
    const usageJournal = sources.usageJournal;
    if (usageJournal) {
      new Gauge({ name: 'gwctl_usage_journal_segments', help: 'Usage journal files on disk; it grows while usage cannot be written to the database.', registers: [this.registry], collect() { this.set(usageJournal().segments); } });
      new Gauge({ name: 'gwctl_usage_journal_append_failures', help: 'Usage journal appends that failed since start (disk full, I/O error); those requests were counted in memory only.', registers: [this.registry], collect() { this.set(usageJournal().appendFailures); } });
    }
    new Gauge({ name: 'gwctl_key_lookups_database', help: 'Key lookups that read the database (cache misses or cache bypassed) since start.', registers: [this.registry], collect() { this.set(sources.databaseKeyLookups()); } });
    new Gauge({
      name: 'gwctl_provider_cooling',
      help: 'Whether a provider is cooling down after consecutive failures (1) or in service (0).',
      labelNames: ['provider'],
      registers: [this.registry],
      collect() {
        for (const { provider, cooling } of sources.providersCooling()) this.set({ provider }, cooling ? 1 : 0);
      },
    });
    const openStreams = this.openStreams;
    new Gauge({ name: 'gwctl_open_streams', help: 'Streamed API answers being relayed now.', registers: [this.registry], collect() { this.set(openStreams.count); } });
    new Gauge({ name: 'gwctl_open_responses', help: 'API responses in progress.', registers: [this.registry], collect() { this.set(sources.openResponses()); } });
  }

  /** One billed request's tokens by class and its cost (null: the model had no price). */
  countUsage(model: string, classes: UsageClasses, costMicros: number | null, currency: string | undefined): void {
    this.usageCounts.add(model, classes, costMicros, currency);
  }

  /**
   * One answered API request. Counted in a plain map (prom-client would build and hash a label
   * object per call) and added to the counter when /metrics is scraped.
   */
  countRequest(route: string, status: string, model: string, provider: string): void {
    const key = `${route}\u0000${status}\u0000${model}\u0000${provider}`;
    const entry = this.requestCounts.get(key);
    if (entry !== undefined) entry.pending += 1;
    else this.requestCounts.set(key, { labels: { route, status, model, provider }, pending: 1 });
  }
}
