// The per-request metrics are counted outside prom-client (plain maps, read at scrape time): their
// exposition must be what prom-client's own Counter and Histogram print for the same observations.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Counter, Histogram, Registry } from 'prom-client';
import { GatewayMetrics } from '../../server/metrics/gateway-metrics.ts';

const BOUNDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

function gatewayMetrics(): GatewayMetrics {
  return new GatewayMetrics({ pendingUsageBuckets: () => 0, usageFlushFailures: () => 0, databaseKeyLookups: () => 0, openResponses: () => 0, providersCooling: () => [] });
}

/** The lines of one metric family, without its HELP text. */
function family(text: string, name: string): string[] {
  return text.split('\n').filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name}_`) || line === `# TYPE ${name} histogram` || line === `# TYPE ${name} counter`);
}

describe('gateway metrics counted outside prom-client', () => {
  it('shows the usage journal: its files on disk and failed appends', async () => {
    const metrics = new GatewayMetrics({
      pendingUsageBuckets: () => 0,
      usageFlushFailures: () => 0,
      databaseKeyLookups: () => 0,
      openResponses: () => 0,
      providersCooling: () => [],
      usageJournal: () => ({ segments: 3, appendFailures: 1 }),
    });
    const text = await metrics.registry.metrics();
    assert.match(text, /^gwctl_usage_journal_segments 3$/m);
    assert.match(text, /^gwctl_usage_journal_append_failures 1$/m);
  });

  it('prints latency histograms as prom-client does, values on bucket bounds included', async () => {
    const metrics = gatewayMetrics();
    const reference = new Registry();
    const histogram = new Histogram({ name: 'gwctl_request_duration_seconds', help: 'x', labelNames: ['route'], buckets: BOUNDS, registers: [reference] });
    const observations: Array<[string, number]> = [
      ['/v1/chat/completions', 0.0004], ['/v1/chat/completions', 0.001], ['/v1/chat/completions', 0.0011],
      ['/v1/messages', 2.5], ['/v1/messages', 500], ['/v1/chat/completions', 0],
    ];
    for (const [route, seconds] of observations) {
      metrics.duration.observe(route, seconds);
      histogram.observe({ route }, seconds);
    }
    const ours = family(await metrics.registry.metrics(), 'gwctl_request_duration_seconds');
    assert.ok(ours.length > 0);
    assert.deepEqual(ours, family(await reference.metrics(), 'gwctl_request_duration_seconds'));
  });

  it('counts requests by route, status, model and provider, across scrapes', async () => {
    const metrics = gatewayMetrics();
    const reference = new Registry();
    const counter = new Counter({ name: 'gwctl_requests_total', help: 'x', labelNames: ['route', 'status', 'model', 'provider'], registers: [reference] });
    const count = (route: string, status: string, model: string, provider: string) => {
      metrics.countRequest(route, status, model, provider);
      counter.inc({ route, status, model, provider });
    };
    count('/v1/chat/completions', '200', 'm1', 'p1');
    count('/v1/chat/completions', '200', 'm1', 'p1');
    count('/v1/messages', 'client_aborted', 'm2', '');
    assert.deepEqual(family(await metrics.registry.metrics(), 'gwctl_requests_total'), family(await reference.metrics(), 'gwctl_requests_total'));
    // Counted after a scrape: added to what the previous scrape saw, never counted twice.
    count('/v1/chat/completions', '200', 'm1', 'p1');
    count('/v1/chat/completions', '429', 'm1', 'p1');
    const second = family(await metrics.registry.metrics(), 'gwctl_requests_total');
    assert.deepEqual(second, family(await reference.metrics(), 'gwctl_requests_total'));
    assert.ok(second.includes('gwctl_requests_total{route="/v1/chat/completions",status="200",model="m1",provider="p1"} 3'));
  });

  it('process metrics carry the gwctl_ prefix once (gwctl_process_…, gwctl_nodejs_…), never gwctl_process_process_', async () => {
    const text = await gatewayMetrics().registry.metrics();
    assert.match(text, /^gwctl_process_cpu_user_seconds_total /m);
    assert.match(text, /^gwctl_nodejs_eventloop_lag_p99_seconds /m);
    assert.doesNotMatch(text, /gwctl_process_process_|gwctl_process_nodejs_/);
  });
});
