// The collection after the start: skipped while a response is open or after a stop, cancelled by
// the stop, and otherwise run once (the collector is then reachable from new contexts as `gc`).
// The tests run in this order on purpose: the flag the collection sets stays set for the process.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runInNewContext } from 'node:vm';
import { Lifecycle } from '../../server/lifecycle.ts';
import { settleAfterStart } from '../../server/settle-after-start.ts';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const collected = () => runInNewContext('typeof gc') === 'function';

test('no collection while a response is open, after a stop began, or once cancelled', async () => {
  const busy = new Lifecycle();
  busy.begin();
  settleAfterStart(busy, 5);
  const draining = new Lifecycle();
  draining.draining = true;
  settleAfterStart(draining, 5);
  const cancel = settleAfterStart(new Lifecycle(), 5);
  cancel();
  await wait(50);
  assert.equal(collected(), false);
});

test('an idle gateway gets one collection after the delay', async () => {
  settleAfterStart(new Lifecycle(), 5);
  await wait(50);
  assert.equal(collected(), true);
});
