import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RateLimiter } from '../../server/limits/rate-limiter.ts';

test('allows the configured requests per minute per key, then refuses until the window ends', () => {
  let now = 1_000_000;
  const limiter = new RateLimiter(3, () => now);
  assert.deepEqual([1, 2, 3].map(() => limiter.take('a').remaining), [2, 1, 0]);
  const refused = limiter.take('a');
  assert.equal(refused.allowed, false);
  assert.equal(refused.resetMs, 60_000);
  assert.equal(limiter.take('b').allowed, true, 'keys are limited separately');
  now += 30_000;
  assert.equal(limiter.take('a').resetMs, 30_000);
  now += 30_000;
  assert.equal(limiter.take('a').allowed, true, 'a new window starts');
});

test('a limit of 0 means no limit', () => {
  assert.equal(new RateLimiter(0).enabled, false);
});
