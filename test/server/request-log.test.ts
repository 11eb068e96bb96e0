// The request log's buffer (no write per request, batches, the bound and its drop count, a failed
// flush keeps its entries), its repository on SQLite and PostgreSQL (keyset paging, also across
// entries of the same millisecond, filters, pruning by age from the oldest ids, stopping at the first
// batch inside the retention period), migration 0012 (rows of the old shape kept, in order) and the
// name the client asked for beside the model that served it (migration 0013, a model alias).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { migrationProvider } from '../../server/store/migrations/index.ts';
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

/** Every support-desk column, on one entry: they must come back as written. */
const SUPPORT_FIELDS = {
  requestId: 'req_seven',
  method: 'POST',
  path: '/v1/messages',
  protocol: 'messages',
  errorCode: 'rate_limit_exceeded',
  errorMessage: 'This key is limited to 2 requests per minute. Retry after 31 s.',
  keyHint: 'sk-…wxyz',
  keyFingerprint: '0123456789abcdef',
  provider: 'anthropic-main',
  upstreamStatus: 200,
  upstreamRequestId: 'msg_upstream_7',
  attempts: 2,
};

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
      requestedModel: i === 7 ? 'claude-opus-4-8' : undefined,
      latencyMs: i === 8 ? -3 : 12.4,
      ...(i === 7 ? SUPPORT_FIELDS : {}),
    }));
    if (i === 3) entries.push(entry(3, { userId: 'someone-else' }));
  }
  // Several entries in the same millisecond: paging must still visit each exactly once.
  for (let i = 0; i < 5; i += 1) entries.push(entry(600, { keyId: 'k3' }));
  await repo.insert(entries);
  assert.equal(await repo.count('u1'), 1_205);
  assert.equal(await repo.count(), 1_206);

  const newest = await repo.list({ userId: 'u1', limit: 3 });
  assert.deepEqual(newest.map((r) => r.at), [T0 + 1_199_000, T0 + 1_198_000, T0 + 1_197_000]);
  assert.ok(newest[0]!.id > newest[1]!.id && newest[1]!.id > newest[2]!.id, 'ids grow with the order of writing');
  const seven = (await repo.list({ userId: 'u1', limit: 1, until: T0 + 7_001, since: T0 + 7_000 }))[0]!;
  assert.equal(typeof seven.id, 'number');
  assert.deepEqual(
    { ...seven, id: undefined },
    { id: undefined, at: T0 + 7_000, userId: 'u1', keyId: 'k2', model: 'demo-chat', status: 200, inputTokens: 10, outputTokens: 5, latencyMs: 12, sessionId: 'session-7', outcome: null, requestedModel: 'claude-opus-4-8', ...SUPPORT_FIELDS, costMicros: 0, costEstimated: false },
  );
  assert.deepEqual({ ...(await repo.findByRequestId('req_seven'))!, id: undefined }, { ...seven, id: undefined }, 'found by the gateway\'s request id');
  assert.equal((await repo.findByRequestId('msg_upstream_7'))?.requestId, 'req_seven', "and by the upstream's");
  assert.equal(await repo.findByRequestId('req_none'), undefined);
  assert.deepEqual((await repo.recentOf({ fingerprint: '0123456789abcdef' }, T0, 10)).map((r) => r.requestId), ['req_seven']);
  const nine = (await repo.list({ userId: 'u1', limit: 1, until: T0 + 9_001, since: T0 + 9_000 }))[0]!;
  assert.equal(nine.requestedModel, null, 'no alias: no requested name beside the model');
  const eight = (await repo.list({ userId: 'u1', limit: 1, until: T0 + 8_001, since: T0 + 8_000 }))[0]!;
  assert.equal(eight.latencyMs, 0, 'counts are whole and never negative');

  // Keyset paging over everything: every entry once, newest first.
  const seen: RequestLogRecord[] = [];
  let before: { at: number; id: number } | undefined;
  for (;;) {
    const page = await repo.list({ userId: 'u1', limit: 100, before });
    seen.push(...page);
    if (page.length < 100) break;
    before = { at: page.at(-1)!.at, id: page.at(-1)!.id };
  }
  assert.equal(seen.length, 1_205);
  assert.equal(new Set(seen.map((r) => r.id)).size, 1_205, 'no entry twice');
  for (let i = 1; i < seen.length; i += 1) assert.ok(seen[i - 1]!.at > seen[i]!.at || (seen[i - 1]!.at === seen[i]!.at && seen[i - 1]!.id > seen[i]!.id), 'ordered by (at, id) descending');

  // Paging two at a time through the six entries of one millisecond (entry 600 and the five of k3).
  const same: RequestLogRecord[][] = [];
  let cursor: { at: number; id: number } | undefined = { at: T0 + 600_001, id: 0 };
  while (cursor) {
    const page = await repo.list({ userId: 'u1', since: T0 + 600_000, limit: 2, before: cursor });
    if (page.length > 0) same.push(page);
    cursor = page.length === 2 ? { at: page[1]!.at, id: page[1]!.id } : undefined;
  }
  assert.deepEqual(same.map((page) => page.length), [2, 2, 2]);
  const sameIds = same.flat().map((r) => r.id);
  assert.ok(same.flat().every((r) => r.at === T0 + 600_000));
  assert.deepEqual(sameIds, [...sameIds].sort((a, b) => b - a), 'by id, descending');
  assert.equal(new Set(sameIds).size, 6);
  const k3 = await repo.list({ userId: 'u1', keyId: 'k3', limit: 10, before: { at: T0 + 600_000, id: sameIds[1]! } });
  assert.deepEqual(k3.map((r) => r.id), sameIds.slice(2).filter((id) => id !== seen.find((r) => r.at === T0 + 600_000 && r.keyId !== 'k3')!.id));

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
  const window = await repo.list({ userId: 'u1', since: T0 + 10_000, until: T0 + 20_000, limit: 100 });
  assert.equal(window.length, 10);
  assert.equal((await repo.list({ userId: 'nobody', limit: 10 })).length, 0, "no one else's entries");

  // Pruning by age (the cutoff as the buffer gives it, ISO), in batches smaller than what goes.
  const pruned = await repo.prune(new Date(T0 + 500_000).toISOString(), 64);
  assert.equal(pruned, 501, 'entries 0..499 of u1 and the other user');
  assert.equal(await repo.count('u1'), 1_205 - 500);
  assert.equal(await repo.count('someone-else'), 0);
  assert.equal(await repo.prune(new Date(T0).toISOString(), 64), 0);

  // Pruning walks the oldest ids and stops at the first batch holding an entry inside the retention
  // period: the five k3 entries of t=600 s were written after those of t=1199 s, so they, and an
  // entry written now by an instance whose clock is behind, wait for a later prune; nothing past
  // that batch is looked at.
  await repo.insert([entry(100, { keyId: 'late' })]);
  const stopped = await repo.prune(T0 + 700_000, 64);
  assert.equal(stopped, 200, 'entries 500..699, in id order');
  const left = await repo.list({ userId: 'u1', until: T0 + 700_000, limit: 100 });
  assert.deepEqual(left.map((r) => [r.keyId, (r.at - T0) / 1000]), [...Array.from({ length: 5 }, () => ['k3', 600]), ['late', 100]]);
  assert.equal(await repo.count('u1'), 1_205 - 500 - 200 + 1);
  // Once the entries before them are old too, they go.
  assert.equal(await repo.prune(T0 + 2_000_000, 64), 506);
  assert.equal(await repo.count(), 0);
  await repo.insert([entry(5)]);
  assert.equal(await repo.count(), 1, 'an emptied table takes entries again');
}

describe('request log repository', () => {
  test('SQLite: one prepared insert per entry, keyset paging, filters, pruning', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gwctl-reqlog-'));
    const store = await Store.open(`sqlite://${join(dir, 'gateway.db')}`);
    try {
      await exerciseRepo(store);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('PostgreSQL: multi-row inserts, the same', async () => {
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

/** Rows as migration 0009 wrote them: text ids in no particular order, ISO times. */
const OLD_ROWS = [
  { id: 'req_b_0', at: '2026-11-20T12:00:02.500Z', user_id: 'u1', key_id: 'k1', model: 'm', status: 200, input_tokens: 3, output_tokens: 4, latency_ms: 5, session_id: 's', outcome: null },
  { id: 'req_a_9', at: '2026-11-20T12:00:01.999Z', user_id: 'u1', key_id: 'k2', model: 'm', status: 502, input_tokens: 0, output_tokens: 0, latency_ms: 30, session_id: null, outcome: 'upstream_error' },
  { id: 'req_a_1', at: '2026-11-20T12:00:02.500Z', user_id: 'u1', key_id: 'k1', model: 'n', status: 429, input_tokens: 1, output_tokens: 2, latency_ms: 0, session_id: null, outcome: null },
  { id: 'req_c_0', at: '2026-11-20T12:00:00.001Z', user_id: 'u2', key_id: 'k9', model: 'm', status: 200, input_tokens: 9_000_000_000, output_tokens: 1, latency_ms: 7, session_id: null, outcome: null },
];
/** Rows written before migration 0014 have no support-desk facts. */
const SUPPORT_COLUMNS_EMPTY = Object.fromEntries(
  ['request_id', 'method', 'path', 'protocol', 'error_code', 'error_message', 'key_hint', 'key_fingerprint', 'provider', 'upstream_status', 'upstream_request_id', 'attempts'].map((c) => [c, null]),
);
/** The same rows in (at, id) order, as the new table must hold them. */
const MIGRATED = [3, 1, 2, 0].map((i) => OLD_ROWS[i]!);

async function exerciseMigration(db: Kysely<any>, open: () => Promise<Store>, postgres: boolean): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  assert.equal((await migrator.migrateTo('0011-conversation-settings')).error, undefined);
  await db.insertInto('request_log').values(OLD_ROWS).execute();

  const store = await open();
  try {
    const rows = (await sql<Record<string, unknown>>`select * from request_log order by id`.execute(db)).rows;
    assert.deepEqual(rows.map((r) => Number(r.id)), [1, 2, 3, 4], 'ids numbered in (at, id) order');
    assert.deepEqual(
      rows.map((r) => ({ ...r, id: undefined, at: Number(r.at), input_tokens: Number(r.input_tokens), output_tokens: Number(r.output_tokens) })),
      MIGRATED.map((r) => ({ ...r, id: undefined, at: Date.parse(r.at), requested_model: null, ...SUPPORT_COLUMNS_EMPTY, cost_micros: null, cost_estimated: null })),
      'every value kept, times as epoch ms',
    );
    const page = await store.requestLog.list({ userId: 'u1', limit: 10 });
    assert.deepEqual(page.map((r) => [r.id, new Date(r.at).toISOString(), r.status]), [[4, '2026-11-20T12:00:02.500Z', 200], [3, '2026-11-20T12:00:02.500Z', 429], [2, '2026-11-20T12:00:01.999Z', 502]]);
    await store.requestLog.insert([entry(10)]);
    assert.deepEqual((await store.requestLog.list({ userId: 'u1', limit: 1 })).map((r) => r.id), [5], 'new ids follow the copied ones');

    const indexes = postgres
      ? (await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'request_log' order by 1`.execute(db)).rows.map((r) => r.name)
      : (await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'request_log' order by 1`.execute(db)).rows.map((r) => r.name);
    const support = ['request_log_fingerprint_idx', 'request_log_request_id_idx', 'request_log_upstream_id_idx'];
    assert.deepEqual(
      indexes,
      postgres ? ['request_log_fingerprint_idx', 'request_log_key_at_idx', 'request_log_pkey', 'request_log_request_id_idx', 'request_log_upstream_id_idx', 'request_log_user_at_idx'] : [...support.slice(0, 1), 'request_log_key_at_idx', ...support.slice(1), 'request_log_user_at_idx'],
      'no index on time alone; on SQLite the id is the rowid; the support columns: request ids, fingerprints (partial)',
    );
  } finally {
    await store.close();
  }

  // And back (through 0013, which drops the requested name): 0009's shape, the same rows and times,
  // text ids in the same order.
  assert.equal((await migrator.migrateTo('0011-conversation-settings')).error, undefined);
  const back = (await sql<Record<string, unknown>>`select * from request_log order by id`.execute(db)).rows;
  assert.deepEqual(back.map((r) => r.at), [...MIGRATED.map((r) => r.at), new Date(T0 + 10_000).toISOString()]);
  assert.ok(back.every((r) => typeof r.id === 'string' && /^req_\d{19}$/.test(r.id)));
  assert.equal((await migrator.migrateToLatest()).error, undefined);
  assert.equal(Number((await sql<{ n: string }>`select count(*) as n from request_log`.execute(db)).rows[0]!.n), 5);
}

describe('migration 0012: the request log rebuilt with integer ids and times', () => {
  test('SQLite: rows of the old shape are kept, in (at, id) order, with their values', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gwctl-reqlog-migrate-'));
    const path = join(dir, 'gateway.db');
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new BetterSqlite3(path) }) });
    try {
      await exerciseMigration(db, () => Store.open(`sqlite://${path}`), false);
    } finally {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('PostgreSQL: the same', async () => {
    const database = await createTestDatabase('reqlogmig');
    const pool = new pg.Pool({ connectionString: database.url, max: 2 });
    // pool.end() resolves before its clients' sockets close; the forced drop that follows can then
    // terminate a backend still ending, and an idle client's error with no listener is fatal.
    pool.on('error', () => undefined);
    const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
    try {
      await exerciseMigration(db, () => Store.open(database.url), true);
    } finally {
      await db.destroy();
      await database.drop();
    }
  });
});
