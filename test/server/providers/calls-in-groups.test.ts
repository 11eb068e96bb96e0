import assert from 'node:assert/strict';
import { test } from 'node:test';
import { callsInGroups } from '../../../server/providers/calls-in-groups.ts';

test('calls run a group at a time, results in item order', async () => {
  let running = 0;
  let most = 0;
  const results = await callsInGroups([1, 2, 3, 4, 5], 2, async (n) => {
    running += 1;
    most = Math.max(most, running);
    await new Promise((resolve) => setImmediate(resolve));
    running -= 1;
    return n * 10;
  }, () => false);
  assert.deepEqual(results, [10, 20, 30, 40, 50]);
  assert.equal(most, 2);
});

test('a failed answer ends the calls after its group; a thrown error is thrown once its group settled', async () => {
  const called: number[] = [];
  const results = await callsInGroups([1, 2, 3, 4, 5], 2, async (n) => (called.push(n), n), (n) => n === 3);
  assert.deepEqual(results, [1, 2, 3, 4]);
  assert.deepEqual(called, [1, 2, 3, 4]);
  let settledSibling = false;
  await assert.rejects(
    callsInGroups([1, 2], 2, async (n) => {
      if (n === 1) throw new Error('connection reset');
      await new Promise((resolve) => setImmediate(resolve));
      settledSibling = true;
      return n;
    }, () => false),
    /connection reset/,
  );
  assert.equal(settledSibling, true);
});
