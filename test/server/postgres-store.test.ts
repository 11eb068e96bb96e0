// The same store on the PostgreSQL dialect (the machine's PostgreSQL at 127.0.0.1:5432, trust auth),
// in a database created for this run and dropped afterwards.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import pg from 'pg';
import { Store } from '../../server/store/store.ts';
import { UsageMeter } from '../../server/usage/usage-meter.ts';

const ADMIN_URL = process.env.GWCTL_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function withDatabase(work: (url: string) => Promise<void>): Promise<boolean> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  try {
    await admin.connect();
  } catch {
    return false;
  }
  const name = `gwctl_test_${process.pid}_${Date.now()}`;
  await admin.query(`create database ${name}`);
  try {
    const url = new URL(ADMIN_URL);
    url.pathname = `/${name}`;
    await work(url.toString());
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
  return true;
}

test('migrations, keys, users and batched usage work on PostgreSQL', async (t) => {
  const ran = await withDatabase(async (url) => {
    const store = await Store.open(url);
    try {
      assert.equal(await store.ping(), true);
      const user = await store.users.create('pg-user', 'password-123');
      const created = await store.keys.create(user.id, 'pg');
      assert.equal((await store.keys.findByValue(created.key))?.id, created.id);
      assert.equal(await store.keys.findByValue(created.key + 'x'), undefined);
      assert.equal(store.database.changedElsewhere, undefined, 'no cross-process change signal: the key cache stays off');
      const meter = new UsageMeter(store.usage, () => new Date('2026-11-21T08:30:00Z'));
      for (const status of [200, 200, 503]) meter.record({ userId: user.id, keyId: created.id, model: 'm', status, inputTokens: 5, outputTokens: 7 });
      await meter.flush();
      meter.record({ userId: user.id, keyId: created.id, model: 'm', status: 503, inputTokens: 1, outputTokens: 0 });
      await meter.flush();
      const [row] = await store.usage.rows({ userId: user.id });
      assert.deepEqual({ ...row, userId: undefined, keyId: undefined }, { hour: '2026-11-21T08:00Z', userId: undefined, keyId: undefined, model: 'm', requests: 4, inputTokens: 16, outputTokens: 21, errors: 2, costMicros: 0, unpriced: 0, estimated: 0, providerRequests: 0 });
      assert.deepEqual((await store.usage.errorsByStatus({ userId: user.id })).map((e) => [e.status, e.count]), [[503, 2]]);
      assert.ok((await store.keys.listForUser(user.id))[0]!.lastUsedAt);
      assert.equal(await store.keys.deleteOwned('someone-else', created.id), false);
      assert.equal(await store.keys.deleteOwned(user.id, created.id), true);
    } finally {
      await store.close();
    }
    // Opening again finds the schema current and does not re-run migrations.
    const reopened = await Store.open(url);
    assert.equal(await reopened.users.count(), 1);
    await reopened.close();
  });
  if (!ran) t.skip(`PostgreSQL is not reachable at ${ADMIN_URL}`);
});
