// The request log's buffer (no write per request, batches, the bound and its drop count, a failed
// flush keeps its entries) and its repository on SQLite and PostgreSQL (keyset paging, filters,
// pruning by age).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Store } from '../../server/store/store.ts';
import type { RequestLogRecord } from '../../server/store/request-log-repo.ts';
import { RequestLog, type RequestLogEntry } from '../../server/usage/request-log.ts';
import { createTestDatabase } from '../helpers/postgres-database.ts';

const T0 = Date.parse('2026-11-20T12:00:00.000Z');
const entry = (i: number, over: Partial<RequestLogEntry> = {}): RequestLogEntry => ({
  at: T0 + i * 1000,
  userId: 'u1',
  keyId: 'k1',
  model: 'demo-chat',
  status: 200,
  inputTokens: 10,
  outputTokens: 5,
  latencyMs: 12.4,
  ...over,
});

function fakeWriter() {
  const batches: RequestLogEntry[][] = [];
  const prunes: string[] = [];
  let failing = false;
  return {
    batches,
    prunes,
    fail(on: boolean) {
      failing = on;
    },
    async insert(entries: RequestLogEntry[]) {
      if (failing) throw new Error('connection refused');
      batches.push([...entries]);
    },
    async prune(cutoff: string) {
      prunes.push(cutoff);
      return 0;
    },
  };
}

describe('request log buffer', () => {
  test('push writes nothing; a flush writes everything buffered as one batch; an empty flush writes nothing', async () => {
    const writer = fakeWriter();
    const log = new RequestLog(writer, { now: () => T0 });
    for (let i = 0; i < 5; i += 1) log.push(entry(i));
    assert.equal(writer.batches.length, 0, 'no write per request');
    assert.equal(log.buffered, 5);
    await log.flush();
    assert.equal(writer.batches.length, 1);
    assert.deepEqual(writer.batches[0]!.map((e) => e.at), [0, 1, 2, 3, 4].map((i) => T0 + i * 1000));
    assert.equal(log.buffered, 0);
    await log.flush();
    assert.equal(writer.batches.length, 1, 'nothing to write');
  });

  test('the buffer is bounded: past maxBuffered entries are dropped and counted', async () => {
    const writer = fakeWriter();
    const log = new RequestLog(writer, { maxBuffered: 3, now: () => T0 });
    for (let i = 0; i < 5; i += 1) log.push(entry(i));
    assert.equal(log.buffered, 3);
    assert.equal(log.dropped, 2);
    await log.flush();
    assert.deepEqual(writer.batches[0]!.map((e) => e.at), [T0, T0 + 1000, T0 + 2000], 'the first ones were kept');
  });

  test('a failed flush keeps its entries (before newer ones) for the next flush, within the bound', async () => {
    const writer = fakeWriter();
    const log = new RequestLog(writer, { maxBuffered: 4, now: () => T0 });
    log.push(entry(0));
    log.push(entry(1));
    writer.fail(true);
    await assert.rejects(log.flush(), /connection refused/);
    assert.equal(log.flushFailures, 1);
    assert.equal(log.buffered, 2, 'kept');
    log.push(entry(2));
    log.push(entry(3));
    log.push(entry(4));
    assert.equal(log.dropped, 1, 'the bound holds while the database is away');
    await assert.rejects(log.flush(), /connection refused/);
    writer.fail(false);
    await log.flush();
    assert.deepEqual(writer.batches.at(-1)!.map((e) => (e.at - T0) / 1000), [0, 1, 2, 3], 'older entries first, nothing written twice');
    assert.equal(log.buffered, 0);
  });

  test('pruning runs at the first flush and then once per period, with the retention cutoff', async () => {
    const writer = fakeWriter();
    let now = T0;
    const log = new RequestLog(writer, { retentionDays: 30, pruneEveryMs: 3_600_000, now: () => now });
    await log.flush();
    assert.deepEqual(writer.prunes, ['2026-10-21T12:00:00.000Z']);
    now += 60_000;
    await log.flush();
    assert.equal(writer.prunes.length, 1, 'not again within the hour');
    now += 3_600_000;
    await log.flush();
    assert.equal(writer.prunes.length, 2);
  });

  test('stop() flushes what is buffered', async () => {
    const writer = fakeWriter();
    const log = new RequestLog(writer, { now: () => T0 });
    log.start(60_000);
    log.push(entry(0));
    await log.stop();
    assert.equal(writer.batches.length, 1);
  });
});

async function exerciseRepo(store: Store): Promise<void> {
  const repo = store.requestLog;
  // 1,200 entries: more than one INSERT statement's worth, in one batch.
  const entries: RequestLogEntry[] = [];
  for (let i = 0; i < 1_200; i += 1) {
    entries.push(entry(i, {
      keyId: i % 2 === 0 ? 'k1' : 'k2',
      model: i % 3 === 0 ? 'other-model' : 'demo-chat',
      status: i % 10 === 0 ? 429 : i % 25 === 0 ? 502 : 200,
      sessionId: i === 7 ? 'session-7' : undefined,
      outcome: i === 9 ? 'client_aborted' : undefined,
    }));
  }
  // Several entries in the same millisecond: paging must still visit each exactly once.
  for (let i = 0; i < 5; i += 1) entries.push(entry(600, { keyId: 'k3' }));
  entries.push(entry(3, { userId: 'someone-else' }));
  await repo.insert(entries);
  assert.equal(await repo.count('u1'), 1_205);

  const newest = await repo.list({ userId: 'u1', limit: 3 });
  assert.deepEqual(newest.map((r) => r.at), ['2026-11-20T12:19:59.000Z', '2026-11-20T12:19:58.000Z', '2026-11-20T12:19:57.000Z']);
  const seven = (await repo.list({ userId: 'u1', limit: 1, until: new Date(T0 + 7_001).toISOString(), since: new Date(T0 + 7_000).toISOString() }))[0]!;
  assert.deepEqual(
    { ...seven, id: undefined },
    { id: undefined, at: '2026-11-20T12:00:07.000Z', keyId: 'k2', model: 'demo-chat', status: 200, inputTokens: 10, outputTokens: 5, latencyMs: 12, sessionId: 'session-7', outcome: null },
  );

  // Keyset paging over everything: every entry once, newest first.
  const seen: RequestLogRecord[] = [];
  let before: { at: string; id: string } | undefined;
  for (;;) {
    const page = await repo.list({ userId: 'u1', limit: 100, before });
    seen.push(...page);
    if (page.length < 100) break;
    before = { at: page.at(-1)!.at, id: page.at(-1)!.id };
  }
  assert.equal(seen.length, 1_205);
  assert.equal(new Set(seen.map((r) => r.id)).size, 1_205, 'no entry twice');
  for (let i = 1; i < seen.length; i += 1) assert.ok(seen[i - 1]!.at > seen[i]!.at || (seen[i - 1]!.at === seen[i]!.at && seen[i - 1]!.id > seen[i]!.id), 'ordered by (at, id) descending');

  // Filters: key, model, status class, period.
  const k1 = await repo.list({ userId: 'u1', keyId: 'k1', limit: 2_000 });
  assert.equal(k1.length, 600);
  assert.ok(k1.every((r) => r.keyId === 'k1'));
  const errors4xx = await repo.list({ userId: 'u1', statusClass: 4, limit: 2_000 });
  assert.equal(errors4xx.length, 120);
  assert.ok(errors4xx.every((r) => r.status === 429));
  const errors5xx = await repo.list({ userId: 'u1', statusClass: 5, keyId: 'k2', limit: 2_000 });
  assert.ok(errors5xx.length > 0 && errors5xx.every((r) => r.status === 502 && r.keyId === 'k2'));
  const other = await repo.list({ userId: 'u1', model: 'other-model', statusClass: 2, limit: 2_000 });
  assert.ok(other.length > 0 && other.every((r) => r.model === 'other-model' && r.status === 200));
  const window = await repo.list({ userId: 'u1', since: new Date(T0 + 10_000).toISOString(), until: new Date(T0 + 20_000).toISOString(), limit: 100 });
  assert.equal(window.length, 10);
  assert.equal((await repo.list({ userId: 'nobody', limit: 10 })).length, 0, "no one else's entries");

  // Pruning by age, in batches smaller than what goes.
  const pruned = await repo.prune(new Date(T0 + 500_000).toISOString(), 64);
  assert.equal(pruned, 501, 'entries 0..499 of u1 and the other user');
  assert.equal(await repo.count('u1'), 1_205 - 500);
  assert.equal(await repo.prune(new Date(T0).toISOString(), 64), 0);
}

describe('request log repository', () => {
  test('SQLite: batches over one statement, keyset paging, filters, pruning', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gwctl-reqlog-'));
    const store = await Store.open(`sqlite://${join(dir, 'gateway.db')}`);
    try {
      await exerciseRepo(store);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('PostgreSQL: the same', async () => {
    const database = await createTestDatabase('reqlog');
    const store = await Store.open(database.url);
    try {
      await exerciseRepo(store);
    } finally {
      await store.close();
      await database.drop();
    }
  });

  test('a flush through the buffer writes to the database; nothing is written before it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gwctl-reqlog-'));
    const store = await Store.open(`sqlite://${join(dir, 'gateway.db')}`);
    try {
      const log = new RequestLog(store.requestLog);
      log.push(entry(0, { at: Date.now() }));
      log.push(entry(1, { at: Date.now() }));
      assert.equal(await store.requestLog.count(), 0);
      await log.flush();
      assert.equal(await store.requestLog.count(), 2);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
