import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LoginLimiter } from '../../../server/web/session/login-limiter.ts';

test('an address that keeps failing for a name is locked for that name only; an address failing overall is locked', async () => {
  let now = 0;
  const limiter = new LoginLimiter({ maxPerPair: 3, maxPerAddress: 5, now: () => now });
  for (let i = 0; i < 3; i += 1) await limiter.fail('1.1.1.1', 'alice');
  assert.equal(await limiter.retryAfterMs('1.1.1.1', 'alice'), 15 * 60_000);
  assert.equal(await limiter.retryAfterMs('2.2.2.2', 'alice'), 0, 'the person, from their own address, is not locked out');
  assert.equal(await limiter.retryAfterMs('1.1.1.1', 'bob'), 0, 'other names from the address may still try');
  await limiter.fail('1.1.1.1', 'bob');
  await limiter.fail('1.1.1.1', 'carol');
  assert.ok((await limiter.retryAfterMs('1.1.1.1', 'dave')) > 0, 'the address is locked after 5 failures');
  assert.equal(await limiter.retryAfterMs('2.2.2.2', 'dave'), 0);
  now += 15 * 60_000;
  assert.equal(await limiter.retryAfterMs('1.1.1.1', 'alice'), 0, 'the window slides');
  await limiter.fail('3.3.3.3', 'erin');
  await limiter.succeed('3.3.3.3', 'erin');
  assert.equal(await limiter.retryAfterMs('3.3.3.3', 'erin'), 0);
});

test('a name failing from many addresses is paced, never locked: delays double up to a bound, attempts run one at a time', async () => {
  const waits: number[] = [];
  const limiter = new LoginLimiter({ paceAfter: 4, baseDelayMs: 100, maxDelayMs: 1_000, wait: async (ms) => void waits.push(ms) });
  for (let i = 0; i < 4; i += 1) await limiter.fail(`10.0.0.${i}`, 'alice');
  assert.equal(await limiter.delayMs('alice'), 100);
  for (let i = 4; i < 12; i += 1) await limiter.fail(`10.0.0.${i}`, 'alice');
  assert.equal(await limiter.delayMs('alice'), 1_000, 'bounded');
  assert.equal(await limiter.retryAfterMs('192.168.1.9', 'alice'), 0, 'a new address is never locked for the name');
  let running = 0;
  let most = 0;
  const attempt = async () => {
    running += 1;
    most = Math.max(most, running);
    await new Promise((r) => setImmediate(r));
    running -= 1;
    return 'checked';
  };
  const results = await Promise.all([limiter.paced('alice', attempt), limiter.paced('Alice', attempt), limiter.paced('alice', attempt)]);
  assert.deepEqual(results, ['checked', 'checked', 'checked'], 'the right password still gets checked');
  assert.equal(most, 1, 'one attempt at a time for the name');
  assert.deepEqual(waits, [1_000, 1_000, 1_000]);
  await limiter.succeed('192.168.1.9', 'alice');
  assert.equal(await limiter.delayMs('alice'), 1_000, "a success does not reset the name's pace for a guesser");
});

test('too many attempts waiting for one name are refused for now, without locking anything', async () => {
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  const limiter = new LoginLimiter({ paceAfter: 0, maxWaiting: 2, wait: () => gate });
  const first = limiter.paced('bob', async () => 'a');
  const second = limiter.paced('bob', async () => 'b');
  assert.equal(await limiter.paced('bob', async () => 'c'), undefined);
  open();
  assert.deepEqual(await Promise.all([first, second]), ['a', 'b']);
  assert.equal(await limiter.paced('bob', async () => 'd'), 'd');
});
