// How long a revocation takes to reach another instance: two `gwctl serve` instances on one
// PostgreSQL database (a database of its own) and the machine's Redis (a key prefix of its own).
// Each round creates a key, makes both instances cache it, deletes it through the store (as
// `gwctl admin key delete` or the keys page does), and polls the other instance until it answers
// 401. Reports the median and the worst of the rounds. Loopback only; bounded; stops by itself.
//
//   node --import tsx scripts/bench/scale-out/revocation-latency.ts [--rounds 30]
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { Store } from '../../../server/store/store.ts';
import { Children } from '../gateway/children.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const log = (line: string) => process.stderr.write(`[bench:revocation] ${line}\n`);

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { rounds: { type: 'string', default: '30' } } });
  const rounds = Math.min(200, Math.max(1, Number(values.rounds)));
  const adminUrl = process.env.GWCTL_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const name = `gwctl_revocation_${process.pid}`;
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const tmp = mkdtempSync(join(os.tmpdir(), 'gwctl-bench-revocation-'));
  const children = new Children();
  const hardStop = setTimeout(() => {
    log('still running after 5 minutes: giving up');
    process.exit(1);
  }, 5 * 60_000);
  try {
    const env = { ...process.env, HOME: tmp, GWCTL_DATABASE_URL: url.toString(), GWCTL_REDIS_URL: process.env.GWCTL_BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379', GWCTL_REDIS_PREFIX: `gwctl-revocation-${process.pid}:`, GWCTL_ADMIN_PASSWORD: 'revocation-bench' };
    const start = () =>
      children.start({ name: 'gateway', command: process.execPath, args: [join(ROOT, 'bin/gwctl.js'), 'serve', '--port', '0', '--image-port', '0', '--rate-limit', '0', '--log-level', 'warn'], cwd: ROOT, env, ready: /text API\s+(http:\/\/127\.0\.0\.1:\d+)/, timeoutMs: 60_000, guard: true });
    const [a, b] = [await start(), await start()];
    const [urlA, urlB] = [a.match[1]!, b.match[1]!];
    const store = await Store.open(url.toString());
    const owner = (await store.users.findByName('admin'))!;
    const status = async (origin: string, key: string) => (await fetch(`${origin}/v1/models`, { headers: { authorization: `Bearer ${key}` } })).status;
    const latencies: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      const created = await store.keys.create(owner.id, `round-${round}`);
      for (const origin of [urlA, urlB]) for (let i = 0; i < 2; i += 1) if ((await status(origin, created.key)) !== 200) throw new Error('a fresh key was refused');
      const deletedAt = performance.now();
      await store.keys.deleteById(created.id);
      while ((await status(urlB, created.key)) !== 401) {
        if (performance.now() - deletedAt > 10_000) throw new Error('the deletion did not reach the other instance within 10 s');
      }
      latencies.push(performance.now() - deletedAt);
    }
    await store.close();
    latencies.sort((x, y) => x - y);
    const median = latencies[Math.floor(latencies.length / 2)]!;
    const worst = latencies.at(-1)!;
    process.stdout.write(
      `Revocation reaching another instance (PostgreSQL NOTIFY + Redis pub/sub, ${rounds} rounds, time from the start of the deletion to the first 401 there, polling included): ` +
        `median ${median.toFixed(1)} ms, worst ${worst.toFixed(1)} ms; target <= 100 ms: ${worst <= 100 ? 'met' : 'not met'}.\n`,
    );
  } finally {
    clearTimeout(hardStop);
    await children.stopAll(10_000);
    await admin.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
    await admin.end();
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  log(`failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
  process.exitCode = 1;
});
