// Several instances on PostgreSQL that share one data directory: each needs its own usage journal,
// named by --instance-name. A second gateway on a journal in use refuses to start (exit 2, naming
// the flag); with their own names both run, and after both are killed, each restart replays its
// own journal into the shared database: every request answered is counted once.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { GatewayProcess, isolateClientEnvironment } from '../helpers/gateway-process.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres-database.ts';

describe('usage journals of several instances', () => {
  let database: TestDatabase;
  let dataDir: string;
  let restoreEnv: () => void;
  const running: GatewayProcess[] = [];

  before(async () => {
    restoreEnv = isolateClientEnvironment();
    database = await createTestDatabase('journals');
    dataDir = mkdtempSync(join(tmpdir(), 'gwctl-shared-data-'));
  });

  after(async () => {
    for (const gateway of running) await gateway.cleanup();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    restoreEnv?.();
  });

  const start = (name: string) =>
    GatewayProcess.start({ rateLimit: 0, dataDir, env: { GWCTL_DATABASE_URL: database.url }, extraArgs: ['--instance-name', name], adminPassword: 'journals-admin' });

  test('one journal per instance name; each restart replays its own, once', async () => {
    const first = await start('gw-a');
    running.push(first);
    await assert.rejects(start('gw-a'), (error: Error) => /usage_journal_in_use|--instance-name/.test(error.message), 'the same name on the same data directory is refused');
    const second = await start('gw-b');
    running.push(second);
    assert.ok(existsSync(join(dataDir, 'usage-journal', 'gw-a')) && existsSync(join(dataDir, 'usage-journal', 'gw-b')));

    const { key } = await first.createKey('admin', 'journals');
    let answered = 0;
    for (const gateway of [first, second]) {
      const client = new OpenAI({ baseURL: `${gateway.textUrl}/v1`, apiKey: key, maxRetries: 0 });
      for (let i = 0; i < 3; i += 1) {
        await client.chat.completions.create({ model: 'demo-chat', messages: [{ role: 'user', content: `request ${i}` }] });
        answered += 1;
      }
    }
    // Killed at once after answering: no flush timer has to have run.
    for (const gateway of [first, second]) {
      gateway.signal('SIGKILL');
      await gateway.stop('SIGKILL');
    }
    running.length = 0;
    for (const gateway of [first, second]) running.push(await gateway.restart());

    const report = await running[0]!.adminJson<{ rows: Array<{ model: string; requests: number }> }>(['usage']);
    const counted = report.rows.filter((r) => r.model === 'demo-chat').reduce((sum, r) => sum + r.requests, 0);
    assert.equal(counted, answered);
  });
});
