// The usage journal: appended lines read back whole (every field of the event, new ones included),
// a line torn by a crash skipped, segments trimmed once every sink has written them, one process per
// directory, and replay at start exactly once: nothing lost when the process died between two
// flushes, nothing counted twice when it died after a flush but before the journal was trimmed.
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { ConfigError } from '../../server/errors/config-error.ts';
import { Store } from '../../server/store/store.ts';
import { RequestLog } from '../../server/usage/request-log.ts';
import { recordRequestUsage } from '../../server/usage/record-usage.ts';
import { journalInstanceName, startUsageJournal, usageJournalDir } from '../../server/usage/start-usage-journal.ts';
import { UsageJournal } from '../../server/usage/usage-journal.ts';
import { UsageMeter } from '../../server/usage/usage-meter.ts';
import { createTestDatabase } from '../helpers/postgres-database.ts';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gwctl-journal-'));
  dirs.push(dir);
  return dir;
}

const segmentFiles = (dir: string) => readdirSync(dir).filter((name) => name.startsWith('segment-')).sort();

function event(n: number, extra: Record<string, unknown> = {}) {
  return { userId: 'u1', keyId: 'k1', model: 'm', status: 200, inputTokens: 10 + n, outputTokens: 5, at: Date.parse('2026-11-20T08:30:00Z') + n, latencyMs: 3, ...extra };
}

describe('usage journal file', () => {
  test('appended events read back in order, every field of them, after the process is gone', () => {
    const dir = tempDir();
    const journal = UsageJournal.open(dir, ['usage', 'request_log']);
    journal.begin(0);
    journal.append(event(1), true, 1000);
    // A field this code does not know (another part of the gateway adds it) rides along.
    journal.append(event(2, { cost: 0.25, sessionId: 'sess-1' }), true, 2000);
    journal.append({ userId: 'u1', keyId: '', model: 'web', status: 200, inputTokens: 1, outputTokens: 2 }, false, 3000);
    assert.equal(journal.lastSeq(), 3);
    journal.close();

    const reopened = UsageJournal.open(dir, ['usage', 'request_log']);
    const entries = [...reopened.leftovers()];
    assert.deepEqual(entries.map((e) => [e.seq, e.at, e.inRequestLog]), [[1, 1000, true], [2, 2000, true], [3, 3000, false]]);
    assert.deepEqual(entries[1]!.event, event(2, { cost: 0.25, sessionId: 'sess-1' }));
    assert.equal(reopened.unreadableLines, 0);
    reopened.close();
  });

  test('lines appended in one turn of the event loop are written together; what waits for them runs after', async () => {
    const dir = tempDir();
    const journal = UsageJournal.open(dir, ['usage']);
    journal.begin(0);
    const ran: string[] = [];
    journal.afterWrite(() => ran.push('nothing pending: at once'));
    journal.append(event(1), true);
    journal.append(event(2), true);
    journal.afterWrite(() => ran.push(`after ${readFileSync(join(dir, segmentFiles(dir)[0]!), 'utf8').split('\n').length - 1} lines`));
    assert.deepEqual(ran, ['nothing pending: at once'], 'the answer waits for the write');
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(ran, ['nothing pending: at once', 'after 2 lines']);
    journal.close();
  });

  test('a last line torn by a crash is skipped and counted', () => {
    const dir = tempDir();
    const journal = UsageJournal.open(dir, ['usage']);
    journal.begin(0);
    journal.append(event(1), true);
    journal.append(event(2), true);
    journal.close();
    const [segment] = segmentFiles(dir);
    appendFileSync(join(dir, segment!), '{"s":3,"t":17000,"l":1,"e":{"userId":"u1","keyId":"k1","mo');

    const reopened = UsageJournal.open(dir, ['usage']);
    assert.deepEqual([...reopened.leftovers()].map((e) => e.seq), [1, 2]);
    assert.equal(reopened.unreadableLines, 1);
    // New entries go to a new segment, never after the torn line.
    reopened.begin(2);
    reopened.append(event(3), true);
    reopened.close();
    const again = UsageJournal.open(dir, ['usage']);
    assert.deepEqual([...again.leftovers()].map((e) => e.seq), [1, 2, 3]);
    again.close();
  });

  test('segments go once every sink has written their entries, and not before', () => {
    const dir = tempDir();
    const journal = UsageJournal.open(dir, ['usage', 'request_log']);
    journal.begin(0);
    for (let n = 1; n <= 3; n += 1) journal.append(event(n), true);
    journal.durable('usage', 3);
    assert.equal(segmentFiles(dir).length, 2, 'a flush starts a new segment; the old one waits for the request log');
    journal.append(event(4), true);
    journal.durable('request_log', 3);
    assert.equal(segmentFiles(dir).length, 2, 'entries 1-3 went; entry 4 is in the next segment');
    journal.durable('usage', 4);
    journal.durable('request_log', 4);
    assert.equal(segmentFiles(dir).length, 1, 'only the (empty) current segment is left');
    journal.close();
    assert.deepEqual(segmentFiles(dir), [], 'an empty segment does not outlive a clean stop');
  });

  test('while nothing is flushed (the database away) the journal grows in bounded segments, read back one by one', () => {
    const dir = tempDir();
    const journal = UsageJournal.open(dir, ['usage'], { maxSegmentBytes: 1024 });
    journal.begin(0);
    for (let n = 1; n <= 40; n += 1) {
      journal.append(event(n), true);
      journal.writeNow();
    }
    journal.close();
    const files = segmentFiles(dir);
    assert.ok(files.length >= 5, `segments of about 1 KiB each (40 lines of ~180 bytes): ${files.length}`);
    const reopened = UsageJournal.open(dir, ['usage']);
    assert.deepEqual([...reopened.leftovers()].map((e) => e.seq), Array.from({ length: 40 }, (_, i) => i + 1));
    reopened.begin(40);
    reopened.durable('usage', 40);
    assert.equal(segmentFiles(dir).length, 1, 'all of them go once written; the new current one stays');
    reopened.close();
  });

  test('one process per directory: a live owner refuses, a dead one is taken over', () => {
    const dir = tempDir();
    const journal = UsageJournal.open(dir, ['usage']);
    assert.throws(() => UsageJournal.open(dir, ['usage']), (error: unknown) => error instanceof ConfigError && error.code === 'usage_journal_in_use', 'a second gateway in this process');
    journal.close();
    // The test runner's parent process is alive and is not this process.
    writeFileSync(join(dir, 'lock'), `${process.ppid}\n`);
    assert.throws(() => UsageJournal.open(dir, ['usage']), (error: unknown) => error instanceof ConfigError && error.code === 'usage_journal_in_use');
    // No process has this pid (above Linux's pid_max): a lock left by a killed gateway.
    writeFileSync(join(dir, 'lock'), '2147483646\n');
    UsageJournal.open(dir, ['usage']).close();
  });
});

test('each instance has its own journal directory under the data directory, named by --instance-name or the host name', () => {
  assert.equal(usageJournalDir('/var/lib/gwctl', 'gw-2'), '/var/lib/gwctl/usage-journal/gw-2');
  assert.equal(journalInstanceName(undefined), journalInstanceName(hostname()));
  assert.equal(journalInstanceName('web 1/../x'), 'web_1_.._x', 'never a path');
  assert.equal(journalInstanceName('..'), '_');
});

interface Sinks {
  usage: UsageMeter;
  requestLog: RequestLog;
}

/** A gateway's usage parts over `store`, with the journal in `dir` replayed as at start. */
async function boot(dir: string, store: Store) {
  const usage = new UsageMeter(store.usage);
  const requestLog = new RequestLog(store.requestLog);
  const { journal, replayed } = await startUsageJournal(dir, store, usage, requestLog);
  const sinks: Sinks = { usage, requestLog };
  return { journal, replayed, sinks, record: (n: number) => recordRequestUsage({ ...sinks, usageJournal: journal }, event(n)) };
}

async function totals(store: Store) {
  const rows = await store.usage.rows();
  return { requests: rows.reduce((sum, r) => sum + r.requests, 0), inputTokens: rows.reduce((sum, r) => sum + r.inputTokens, 0), logged: await store.requestLog.count() };
}

const expected = (ns: number[]) => ({ requests: ns.length, inputTokens: ns.reduce((sum, n) => sum + 10 + n, 0), logged: ns.length });

async function exerciseCrashes(openStore: () => Promise<Store>): Promise<void> {
  const dir = join(tempDir(), 'usage-journal', 'gw-1');
  const store = await openStore();
  try {
    // Killed between two flushes: the journal alone has requests 1-3.
    let run = await boot(dir, store);
    [1, 2, 3].forEach(run.record);
    run.journal.close();
    run = await boot(dir, store);
    assert.deepEqual([run.replayed.usage, run.replayed.requestLog], [3, 3]);
    assert.deepEqual(await totals(store), expected([1, 2, 3]));
    const [usageRow] = await store.usage.rows();
    assert.equal(usageRow!.hour, '2026-11-20T08:00Z', 'replayed usage counts in the hour the request ended');

    // Killed after both flushes committed, before the journal was trimmed: the segment as it was.
    [4, 5].forEach(run.record);
    const snapshot = `${dir}.snapshot`;
    cpSync(dir, snapshot, { recursive: true });
    await run.sinks.usage.flush();
    await run.sinks.requestLog.flush();
    run.journal.close();
    rmSync(dir, { recursive: true });
    cpSync(snapshot, dir, { recursive: true });
    rmSync(snapshot, { recursive: true });
    run = await boot(dir, store);
    assert.deepEqual([run.replayed.usage, run.replayed.requestLog], [0, 0], 'nothing counted twice');
    assert.deepEqual(await totals(store), expected([1, 2, 3, 4, 5]));

    // Killed after the usage flush but before the request log's: only the log gets them again.
    [6, 7].forEach(run.record);
    await run.sinks.usage.flush();
    run.journal.close();
    run = await boot(dir, store);
    assert.deepEqual([run.replayed.usage, run.replayed.requestLog], [0, 2]);
    assert.deepEqual(await totals(store), expected([1, 2, 3, 4, 5, 6, 7]));

    // A clean stop: everything flushed, the journal emptied, numbering goes on after a restart.
    run.record(8);
    await run.sinks.usage.stop();
    await run.sinks.requestLog.stop();
    run.journal.close();
    assert.deepEqual(segmentFiles(dir), []);
    run = await boot(dir, store);
    assert.deepEqual([run.replayed.usage, run.replayed.requestLog], [0, 0]);
    assert.equal(run.journal.lastSeq(), 8, 'sequence numbers continue from the database marks');
    run.journal.close();
    assert.deepEqual(await totals(store), expected([1, 2, 3, 4, 5, 6, 7, 8]));
  } finally {
    await store.close();
  }
}

describe('usage journal replay, exactly once', () => {
  test('SQLite', async () => {
    const dir = tempDir();
    await exerciseCrashes(() => Store.open(`sqlite://${join(dir, 'gateway.db')}`));
  });

  test('PostgreSQL', async () => {
    const database = await createTestDatabase('journal');
    try {
      await exerciseCrashes(() => Store.open(database.url));
    } finally {
      await database.drop();
    }
  });
});
