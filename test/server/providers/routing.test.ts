// Routing pieces: the order providers are tried in, the cool-down and probe cycle, retry rules,
// and the providers-file fields that configure them.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseGatewayConfig } from '../../../server/config/gateway-file.ts';
import { buildProviders, ModelRouter } from '../../../server/providers/model-router.ts';
import { orderCandidates } from '../../../server/providers/routing/candidate-order.ts';
import { ProviderHealth } from '../../../server/providers/routing/provider-health.ts';
import { backoffMs, isRetryableStatus, retrySameProvider } from '../../../server/providers/routing/retry-policy.ts';

/** A deterministic generator (mulberry32) so weight shares can be checked exactly enough. */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('candidate order', () => {
  test('priority first, then weight shares; weight 0 only as a fallback', () => {
    const items = [
      { name: 'backup', priority: 2, weight: 1 },
      { name: 'a', priority: 1, weight: 3 },
      { name: 'b', priority: 1, weight: 1 },
      { name: 'spare', priority: 1, weight: 0 },
    ];
    const random = seeded(7);
    const first: Record<string, number> = {};
    for (let i = 0; i < 4000; i += 1) {
      const order = orderCandidates(items, random).map((x) => x.name);
      assert.equal(order[2], 'spare');
      assert.equal(order[3], 'backup');
      first[order[0]!] = (first[order[0]!] ?? 0) + 1;
    }
    const share = first.a! / 4000;
    assert.ok(share > 0.7 && share < 0.8, `weight 3 of 4 should come first ~75% of the time, got ${share}`);
  });
});

describe('provider health', () => {
  test('N consecutive failures start a cool-down; then one probe at a time; success closes it', () => {
    let now = 1000;
    const health = new ProviderHealth(() => now);
    const policy = { cooldownAfterFailures: 2, cooldownMs: 500 };
    health.failure('p', policy);
    assert.equal(health.available('p', policy), true, 'one failure is not enough');
    health.failure('p', policy);
    assert.equal(health.state('p'), 'cooling');
    assert.equal(health.available('p', policy), false);
    now += 500;
    assert.equal(health.state('p'), 'probing');
    assert.equal(health.available('p', policy), true);
    health.begin('p');
    assert.equal(health.available('p', policy), false, 'a second request waits for the probe');
    health.failure('p', policy);
    assert.equal(health.state('p'), 'cooling', 'a failed probe starts another cool-down');
    now += 500;
    health.begin('p');
    health.success('p');
    assert.equal(health.state('p'), 'healthy');
    health.failure('p', policy);
    assert.equal(health.available('p', policy), true, 'the failure count started over');
  });

  test('a probe whose client left frees the slot', () => {
    let now = 0;
    const health = new ProviderHealth(() => now);
    const policy = { cooldownAfterFailures: 1, cooldownMs: 100 };
    health.failure('p', policy);
    now = 100;
    health.begin('p');
    health.release('p');
    assert.equal(health.available('p', policy), true);
  });

  test('the router leaves cooling providers out, unless all of a model are cooling', () => {
    const config = parseGatewayConfig('p.json', {
      providers: [
        { name: 'one', type: 'openai', baseUrl: 'http://127.0.0.1:1/v1', cooldownAfterFailures: 1, models: ['m', 'solo'] },
        { name: 'two', type: 'anthropic', baseUrl: 'http://127.0.0.1:1', priority: 2, models: ['m'] },
      ],
    });
    const router = new ModelRouter(buildProviders(config.providers, {}));
    assert.deepEqual(router.candidates('m').map((r) => r.provider.name), ['one', 'two']);
    router.health.failure('one', { cooldownAfterFailures: 1, cooldownMs: 30_000 });
    assert.deepEqual(router.candidates('m').map((r) => r.provider.name), ['two']);
    assert.deepEqual(router.candidates('solo').map((r) => r.provider.name), ['one'], 'a model with no healthy provider still tries it');
    assert.equal(router.resolve('m')?.provider.name, 'one', 'resolve names the preferred provider');
    assert.deepEqual(router.list('text').map((m) => m.id), ['m', 'solo'], 'the model list shows each name once');
    void router.close();
  });
});

describe('retry rules', () => {
  test('408, 429 and 5xx are retryable; Retry-After over a second moves on to the next provider', () => {
    assert.deepEqual([400, 401, 404, 408, 413, 429, 500, 503, 529].map(isRetryableStatus), [false, false, false, true, false, true, true, true, true]);
    assert.equal(retrySameProvider(503, {}), true);
    assert.equal(retrySameProvider(429, { 'retry-after': '1' }), true);
    assert.equal(retrySameProvider(429, { 'retry-after': '17' }), false);
    assert.equal(retrySameProvider(400, {}), false);
  });

  test('backoff grows and stays bounded', () => {
    const fixed = () => 0.5;
    assert.deepEqual([1, 2, 3, 4, 5, 9].map((n) => backoffMs(n, fixed)), [75, 150, 300, 600, 750, 750]);
  });
});

describe('providers file: routing fields', () => {
  test('defaults, provider-level and model-level values', () => {
    const config = parseGatewayConfig('p.yaml', {
      providers: [
        { name: 'a', type: 'anthropic', baseUrl: 'http://h', priority: 2, weight: 5, retries: 3, cooldownAfterFailures: 4, cooldownMs: 1000, defaultMaxTokens: 1024, models: ['m', { name: 'n', priority: 1, weight: 0 }] },
        { name: 'b', type: 'openai', baseUrl: 'http://h/v1', maxTokensField: 'max_completion_tokens', models: ['m'] },
      ],
    });
    const [a, b] = config.providers;
    assert.deepEqual(a!.routing, { retries: 3, cooldownAfterFailures: 4, cooldownMs: 1000 });
    assert.deepEqual(a!.translation, { defaultMaxTokens: 1024, maxTokensField: 'max_tokens' });
    assert.deepEqual(a!.models[1], { name: 'n', upstreamModel: 'n', kind: 'text', priority: 1, weight: 0 });
    assert.deepEqual(b!.routing, { retries: 1, cooldownAfterFailures: 3, cooldownMs: 30_000 });
    assert.equal(b!.translation.maxTokensField, 'max_completion_tokens');
    const providers = buildProviders(config.providers, {});
    assert.deepEqual(providers[0]!.models.map((m) => [m.id, m.priority, m.weight]), [['m', 2, 5], ['n', 1, 0]]);
    void Promise.all(providers.map((p) => p.close()));
  });

  const bad: Array<[string, Record<string, unknown>, RegExp]> = [
    ['negative weight', { weight: -1 }, /providers\[0\]\.weight must be a whole number/],
    ['fractional priority', { priority: 1.5 }, /providers\[0\]\.priority must be a whole number/],
    ['unknown max tokens field', { maxTokensField: 'limit' }, /providers\[0\]\.maxTokensField must be max_tokens or max_completion_tokens/],
    ['zero default max tokens', { defaultMaxTokens: 0 }, /providers\[0\]\.defaultMaxTokens must be at least 1/],
    ['bad model weight', { models: [{ name: 'm', weight: 'x' }] }, /providers\[0\]\.models\[0\]\.weight must be a whole number/],
  ];
  for (const [name, patch, message] of bad) {
    test(`refuses ${name}, naming the field`, () => {
      assert.throws(() => parseGatewayConfig('p.yaml', { providers: [{ name: 'x', type: 'openai', baseUrl: 'http://h/v1', models: ['m'], ...patch }] }), message);
    });
  }
});
