// Budget building blocks: UTC periods and their resets, parsing what people type, the in-memory
// counter, and the Redis counter shared by instances (two counters on one Redis see one total;
// the counter expires when its period ends; with Redis away, counting goes on in memory).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { RedisBudgetCounter } from '../../server/cluster/redis-budget-counter.ts';
import { RedisCluster } from '../../server/cluster/redis-cluster.ts';
import { MemoryBudgetCounter } from '../../server/limits/budget-counter.ts';
import { periodOf } from '../../server/limits/budget-periods.ts';
import { NO_BUDGETS } from '../../server/limits/key-limits.ts';
import { limitsPatchFrom, parseExpiry } from '../../server/limits/limits-input.ts';
import { chargeBudgets, checkBudgets } from '../../server/limits/quota-guard.ts';
import { RedisRateLimiter } from '../../server/cluster/redis-rate-limiter.ts';
import { RedisProcess } from '../helpers/redis-process.ts';

test('periods are UTC calendar days and months; the last millisecond still belongs to the period', () => {
  const lastMs = Date.parse('2026-12-31T23:59:59.999Z');
  assert.deepEqual(periodOf('day', lastMs), { kind: 'day', label: '2026-12-31', endsAt: Date.parse('2027-01-01T00:00:00Z') });
  assert.deepEqual(periodOf('month', lastMs), { kind: 'month', label: '2026-12', endsAt: Date.parse('2027-01-01T00:00:00Z') });
  assert.equal(periodOf('day', lastMs + 1).label, '2027-01-01');
  assert.equal(periodOf('month', Date.parse('2028-02-29T12:00:00Z')).endsAt, Date.parse('2028-03-01T00:00:00Z'));
});

test('limit input: durations, ISO dates, removals, and messages that say what is accepted', () => {
  const now = Date.parse('2026-03-10T12:00:00Z');
  assert.equal(parseExpiry('30d', now), '2026-04-09T12:00:00.000Z');
  assert.equal(parseExpiry('12h', now), '2026-03-11T00:00:00.000Z');
  assert.equal(parseExpiry('2027-01-31', now), '2027-01-31T00:00:00.000Z');
  assert.equal(parseExpiry('2027-01-31T18:00:00+02:00', now), '2027-01-31T16:00:00.000Z');
  assert.equal(parseExpiry('never', now), null);
  assert.throws(() => parseExpiry('soon', now), /duration like 30d/);
  assert.deepEqual(limitsPatchFrom({ models: 'a, b,,a', rateLimit: '0', budgetTokensDay: 500 }, now), { models: ['a', 'b'], rateLimit: null, budgets: { tokensDay: 500 } });
  assert.deepEqual(limitsPatchFrom({}, now), {});
  assert.throws(() => limitsPatchFrom({ budgetRequestsMonth: '-3' }, now), /Request budget per month must be a whole number/);
});

test('quota guard: refused at exactly the budget, with the seconds until the reset; keys without budgets cost nothing', async () => {
  const now = Date.parse('2026-03-31T23:59:00Z');
  const counter = new MemoryBudgetCounter(() => now);
  const holder = { subject: 'key:k1', label: 'This API key', budgets: { ...NO_BUDGETS, tokensMonth: 100 } };
  await chargeBudgets(counter, [holder], { requests: 1, tokens: 99, cost: 0 }, now);
  await checkBudgets(counter, [holder], now);
  await chargeBudgets(counter, [holder], { requests: 1, tokens: 1, cost: 0 }, now);
  await assert.rejects(checkBudgets(counter, [holder], now), (error: { status: number; code: string; options: { headers: Record<string, string> } }) => {
    assert.equal(error.status, 429);
    assert.equal(error.code, 'quota_exceeded');
    assert.equal(error.options.headers['retry-after'], '60');
    return true;
  });
  await checkBudgets(counter, [holder], Date.parse('2026-04-01T00:00:00Z'));
  const free = { subject: 'key:k2', label: 'This API key', budgets: NO_BUDGETS };
  await chargeBudgets(counter, [free], { requests: 1, tokens: 1000, cost: 0 }, now);
  assert.equal(counter.used('key:k2', 'tokens', periodOf('day', now)), 0);
});

describe('Redis counters', () => {
  let redis: RedisProcess;
  let redisStopped = false;
  const clusters: RedisCluster[] = [];

  before(async () => {
    redis = await RedisProcess.start();
    for (let i = 0; i < 2; i += 1) clusters.push(await RedisCluster.connect(redis.url, 'budget-test:'));
  });

  after(async () => {
    for (const cluster of clusters) await cluster.close();
    // A second stop would wait for an exit that already happened.
    if (!redisStopped) await redis?.stop();
  });

  test('two instances charge one shared budget; the counter expires after its period', async () => {
    const [a, b] = clusters.map((cluster) => new RedisBudgetCounter(cluster));
    const now = Date.now();
    const holder = { subject: 'key:shared', label: 'This API key', budgets: { ...NO_BUDGETS, requestsDay: 2 } };
    await chargeBudgets(a!, [holder], { requests: 1, tokens: 10, cost: 0 }, now);
    await checkBudgets(b!, [holder], now);
    await chargeBudgets(b!, [holder], { requests: 1, tokens: 10, cost: 0 }, now);
    await assert.rejects(checkBudgets(a!, [holder], now), /daily budget of 2 requests/);
    const day = periodOf('day', now);
    assert.equal(await a!.used('key:shared', 'tokens', day), 20);
    const ttl = await clusters[0]!.command.pttl(`budget-test:budget:key:shared:tokens:day:${day.label}`);
    assert.ok(ttl > 0 && ttl <= day.endsAt + 86_400_000 - now + 1000, `expires with its period (ttl ${ttl})`);
  });

  test("the Redis rate limiter takes a key's own limit per call", async () => {
    const limiter = new RedisRateLimiter(clusters[0]!, 0);
    assert.equal((await limiter.take('own', 1)).allowed, true);
    const refused = await limiter.take('own', 1);
    assert.equal(refused.allowed, false);
    assert.equal(refused.limit, 1);
  });

  // Last: it stops this suite's Redis.
  test('Redis away: budgets are counted in the instance\'s memory until it is back, never refused for that', async () => {
    const counter = new RedisBudgetCounter(clusters[1]!);
    const now = Date.now();
    const holder = { subject: 'key:offline', label: 'This API key', budgets: { ...NO_BUDGETS, requestsDay: 1 } };
    await redis.stop();
    redisStopped = true;
    await checkBudgets(counter, [holder], now);
    await chargeBudgets(counter, [holder], { requests: 1, tokens: 5, cost: 0 }, now);
    assert.ok(counter.fallbacks > 0);
    await assert.rejects(checkBudgets(counter, [holder], now), /daily budget of 1 requests/, 'the local count still enforces the budget');
  });
});
