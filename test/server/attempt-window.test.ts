// Device sign-in throttles (codes asked for per address, wrong codes per person): counted in this
// process, or in Redis so that several instances enforce one bound between them; the wait named is
// until enough tries leave the window; the process's own log drops subjects whose window passed.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { RedisCluster } from '../../server/cluster/redis-cluster.ts';
import { RedisFailureLog } from '../../server/cluster/redis-failure-log.ts';
import { AttemptWindow } from '../../server/sign-in/attempt-window.ts';
import { MemoryFailureLog } from '../../server/web/session/failure-log.ts';
import { RedisProcess } from '../helpers/redis-process.ts';

test('in memory: the limit holds, the wait is until the oldest counted try leaves, and kinds are apart', async () => {
  let now = 1_000_000;
  const log = new MemoryFailureLog();
  const starts = new AttemptWindow(3, 60_000, 'starts', log, () => now);
  const wrong = new AttemptWindow(3, 60_000, 'wrong', log, () => now);
  for (let i = 0; i < 3; i++) {
    assert.equal(await starts.retryAfterSeconds('10.0.0.1'), 0);
    await starts.record('10.0.0.1');
    now += 10_000;
  }
  // Tries at 0 s, 10 s and 20 s; now 30 s: the first leaves the window at 60 s.
  assert.equal(await starts.retryAfterSeconds('10.0.0.1'), 30);
  assert.equal(await starts.retryAfterSeconds('10.0.0.2'), 0, 'another address is not held back');
  assert.equal(await wrong.retryAfterSeconds('10.0.0.1'), 0, 'another kind of try is counted apart');
  now += 30_000;
  assert.equal(await starts.retryAfterSeconds('10.0.0.1'), 0);
});

test('in memory: subjects whose window passed are dropped once many are kept', async () => {
  let now = 0;
  const log = new MemoryFailureLog();
  const window = new AttemptWindow(5, 1_000, 'starts', log, () => now);
  for (let i = 0; i < 10_001; i++) await window.record(`address-${i}`);
  now = 5_000;
  await window.record('late');
  const kept = (log as unknown as { failures: Map<string, number[]> }).failures;
  assert.deepEqual([...kept.keys()], ['starts:late']);
});

describe('shared through Redis', () => {
  let redis: RedisProcess;
  const clusters: RedisCluster[] = [];

  before(async () => {
    redis = await RedisProcess.start();
    for (let i = 0; i < 2; i += 1) clusters.push(await RedisCluster.connect(redis.url, 'attempts-test:'));
  });
  after(async () => {
    for (const cluster of clusters) await cluster.close();
    await redis?.stop();
  });

  test('two instances enforce one bound: tries on either count for both', async () => {
    const [a, b] = clusters.map((cluster) => new AttemptWindow(4, 600_000, 'device-starts', new RedisFailureLog(cluster, 'attempts')));
    for (let i = 0; i < 4; i++) {
      const instance = i % 2 === 0 ? a! : b!;
      assert.equal(await instance.retryAfterSeconds('203.0.113.9'), 0, `try ${i + 1}`);
      await instance.record('203.0.113.9');
    }
    const waitA = await a!.retryAfterSeconds('203.0.113.9');
    const waitB = await b!.retryAfterSeconds('203.0.113.9');
    assert.ok(waitA > 590 && waitA <= 600, `instance a waits ${waitA} s`);
    assert.ok(waitB > 590 && waitB <= 600, `instance b waits ${waitB} s`);
    // Kept apart from the failed logins of the same subject.
    const logins = new RedisFailureLog(clusters[0]!);
    assert.deepEqual(await logins.recent('device-starts:203.0.113.9', 0), []);
  });
});
