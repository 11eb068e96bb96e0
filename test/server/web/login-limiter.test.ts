import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LoginLimiter } from '../../../server/web/session/login-limiter.ts';

test('locks a user name after its failures, and an address after more, for a sliding window', () => {
  let now = 0;
  const limiter = new LoginLimiter(3, 5, () => now);
  for (let i = 0; i < 3; i += 1) limiter.fail('1.1.1.1', 'alice');
  assert.equal(limiter.retryAfterMs('1.1.1.1', 'alice'), 15 * 60_000);
  assert.equal(limiter.retryAfterMs('1.1.1.1', 'bob'), 0, 'other names from the address may still try');
  limiter.fail('1.1.1.1', 'bob');
  limiter.fail('1.1.1.1', 'carol');
  assert.ok(limiter.retryAfterMs('1.1.1.1', 'dave') > 0, 'the address is locked after 5 failures');
  assert.equal(limiter.retryAfterMs('2.2.2.2', 'dave'), 0);
  now += 15 * 60_000;
  assert.equal(limiter.retryAfterMs('1.1.1.1', 'alice'), 0, 'the window slides');
  limiter.fail('3.3.3.3', 'erin');
  limiter.succeed('3.3.3.3', 'erin');
  assert.equal(limiter.retryAfterMs('3.3.3.3', 'erin'), 0);
});
