// What the usage journal costs a request, on its own: appending the event every API request records
// (JSON of the event, added to the turn's batch) and writing the batch (one writeSync on the O_APPEND
// descriptor per turn of the event loop), with one request a turn (light load) and eight (busy),
// against counting the same event in memory (usage meter + request log buffer), in the same run. CPU
// time per event (user + system, process.cpuUsage), median of rounds. In a tight loop a system call is
// cheaper than inside the gateway, where each one costs several µs (BENCHMARKS.md).
//
//   npm run bench:journal [-- --events 200000 --rounds 5]
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { RequestLog } from '../../../server/usage/request-log.ts';
import { UsageJournal } from '../../../server/usage/usage-journal.ts';
import { UsageMeter } from '../../../server/usage/usage-meter.ts';

const { values } = parseArgs({ options: { events: { type: 'string', default: '200000' }, rounds: { type: 'string', default: '5' } } });
const EVENTS = Number(values.events);
const ROUNDS = Number(values.rounds);

/** The object api-hooks.ts records for a chat completion (same fields, typical sizes). */
const event = (i: number) => ({
  userId: 'usr_7Hq2mX9aLp3kR8vN',
  keyId: 'key_b4Ty8PqW2nZx6LmC',
  model: 'gpt-4.1-mini',
  status: 200,
  inputTokens: 1200 + (i % 300),
  outputTokens: 350 + (i % 90),
  sessionId: undefined,
  outcome: undefined,
  at: Date.now(),
  latencyMs: 812.4375,
});

const nothing = { apply: async () => undefined, insert: async () => undefined, prune: async () => 0 };

function cpuUsPerCall(work: (i: number) => void): number {
  const before = process.cpuUsage();
  for (let i = 0; i < EVENTS; i += 1) work(i);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / EVENTS;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const dir = mkdtempSync(join(os.tmpdir(), 'gwctl-bench-journal-'));
try {
  const journal = UsageJournal.open(join(dir, 'journal'), ['usage', 'request_log']);
  journal.begin(0);
  const meter = new UsageMeter(nothing as never);
  const log = new RequestLog(nothing, { maxBuffered: EVENTS + 1 });
  const inMemory: number[] = [];
  const appended: number[] = [];
  const batched: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    inMemory.push(cpuUsPerCall((i) => {
      const e = event(i);
      meter.record(e);
      log.push(e);
    }));
    await log.flush();
    appended.push(cpuUsPerCall((i) => {
      journal.append(event(i), true, Date.now());
      journal.writeNow();
    }));
    batched.push(cpuUsPerCall((i) => {
      journal.append(event(i), true, Date.now());
      if (i % 8 === 7) journal.writeNow();
    }));
    // As a flush would: a new segment, the old one deleted.
    journal.durable('usage', journal.lastSeq());
    journal.durable('request_log', journal.lastSeq());
  }
  const line = `{"s":${EVENTS},"t":${Date.now()},"l":1,"e":${JSON.stringify(event(0))}}\n`;
  journal.close();
  const load = os.loadavg()[0]!.toFixed(2);
  process.stdout.write(
    [
      `usage journal, ${ROUNDS} rounds x ${EVENTS} events (Node ${process.version}, ${os.cpus().length} cores, load average ${load}), CPU µs per call, median of rounds:`,
      `  counted in memory (usage meter + request log buffer): ${median(inMemory).toFixed(2)} µs`,
      `  journal, one request a turn (JSON + one writeSync):   ${median(appended).toFixed(2)} µs  (rounds ${appended.map((x) => x.toFixed(2)).join(', ')})`,
      `  journal, eight requests a turn (one writeSync for 8):  ${median(batched).toFixed(2)} µs  (rounds ${batched.map((x) => x.toFixed(2)).join(', ')})`,
      `  journal line: ${Buffer.byteLength(line)} bytes`,
      '',
    ].join('\n'),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
