import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { UsageDelta } from '../../server/store/usage-repo.ts';
import { UsageMeter } from '../../server/usage/usage-meter.ts';
import { createTestGateway } from '../helpers/test-app.ts';

test('aggregates per hour, user, key and model and writes nothing until a flush', async () => {
  const gw = await createTestGateway();
  try {
    const at = new Date('2026-11-21T10:15:00Z');
    const meter = new UsageMeter(gw.store.usage, () => at);
    const base = { userId: 'u1', keyId: 'k1', model: 'm', inputTokens: 10, outputTokens: 5 };
    meter.record({ ...base, status: 200 });
    meter.record({ ...base, status: 200 });
    meter.record({ ...base, status: 429, inputTokens: 0, outputTokens: 0 });
    meter.record({ ...base, model: 'other', status: 200 });
    assert.equal(meter.pendingBuckets, 2);
    assert.deepEqual(await gw.store.usage.rows(), [], 'no write per request');
    await meter.flush();
    const rows = await gw.store.usage.rows();
    assert.deepEqual(rows, [
      { hour: '2026-11-21T10:00Z', userId: 'u1', keyId: 'k1', model: 'm', requests: 3, inputTokens: 20, outputTokens: 10, errors: 1, costMicros: 0, unpriced: 0, estimated: 0, providerRequests: 0 },
      { hour: '2026-11-21T10:00Z', userId: 'u1', keyId: 'k1', model: 'other', requests: 1, inputTokens: 10, outputTokens: 5, errors: 0, costMicros: 0, unpriced: 0, estimated: 0, providerRequests: 0 },
    ]);
    assert.deepEqual((await gw.store.usage.errorsByStatus()).map((e) => [e.status, e.count]), [[429, 1]]);
    meter.record({ ...base, status: 500 });
    await meter.stop();
    const again = await gw.store.usage.rows({ userId: 'u1' });
    assert.equal(again.find((r) => r.model === 'm')?.requests, 4, 'later flushes add to the same bucket');
  } finally {
    await gw.close();
  }
});

test('a failed flush keeps the batch and retries it with what arrived meanwhile', async () => {
  const applied: UsageDelta[][] = [];
  let fail = true;
  const repo = {
    apply: async (deltas: UsageDelta[]) => {
      if (fail) throw new Error('database is locked');
      applied.push(deltas.map((d) => ({ ...d })));
    },
  };
  const meter = new UsageMeter(repo as never, () => new Date('2026-11-21T10:00:00Z'));
  meter.record({ userId: 'u', keyId: 'k', model: 'm', status: 200, inputTokens: 3, outputTokens: 4 });
  await assert.rejects(meter.flush(), /locked/);
  meter.record({ userId: 'u', keyId: 'k', model: 'm', status: 502, inputTokens: 1, outputTokens: 0 });
  fail = false;
  await meter.flush();
  assert.equal(applied.length, 1);
  assert.equal(applied[0]![0]!.requests, 2);
  assert.equal(applied[0]![0]!.inputTokens, 4);
  assert.deepEqual(applied[0]![0]!.errorsByStatus, { 502: 1 });
});
