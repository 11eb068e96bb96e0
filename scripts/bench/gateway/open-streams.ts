// Open-streams benchmark: N concurrent SSE streams held open through the gateway (default 2,000),
// each fed one chunk per second by a slow fake upstream, measuring the gateway's memory and CPU
// while they are open, and that every stream ends whole with its usage counted. Also the same
// streams through the bare Node hop, for scale. Everything on loopback; stops by itself.
//
//   npm run bench:streams [-- --streams 2000 --chunks 40 --window 10]
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { Children, readCpuSeconds, readMemory, type Memory } from './children.ts';
import { childEnv, ROOT, startGateway } from './gateway-child.ts';
import { markdownTable, mib } from './stats.ts';
import { pinProcesses, SERVER_CPU, WORLD_CPU } from './cpu-pinning.ts';

const HERE = join(ROOT, 'scripts/bench/gateway');
const HARD_LIMIT_MS = 8 * 60_000;
const GOAL_RSS_MIB = 250;
const GOAL_CPU_PERCENT = 5;

const { values } = parseArgs({
  options: { streams: { type: 'string', default: '2000' }, chunks: { type: 'string', default: '40' }, window: { type: 'string', default: '10' }, 'no-pin': { type: 'boolean', default: false }, 'cpu-prof': { type: 'string' } },
});
const STREAMS = Number(values.streams);
const CHUNKS = Number(values.chunks);
const WINDOW_S = Number(values.window);
if (!(STREAMS >= 1 && STREAMS <= 5000 && CHUNKS >= WINDOW_S + 15 && WINDOW_S >= 2)) {
  console.error('usage: npm run bench:streams -- [--streams 1..5000] [--chunks N >= window + 15] [--window S >= 2] [--no-pin] [--cpu-prof DIR]');
  process.exit(2);
}
const log = (line: string) => process.stderr.write(`[streams] ${line}\n`);

interface StreamResult {
  status: number;
  chunks: number;
  done: boolean;
  error?: string;
}

interface Tally {
  started: number;
  ended: number;
  results: StreamResult[];
}

/** Opens one streamed chat completion; counts its first byte and its end in `tally`. */
function openStream(agent: http.Agent, origin: string, key: string | undefined, tally: Tally): void {
  const result: StreamResult = { status: 0, chunks: 0, done: false };
  tally.results.push(result);
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    if (result.chunks === 0) tally.started += 1;
    tally.ended += 1;
  };
  const body = JSON.stringify({ model: 'slow-model', stream: true, messages: [{ role: 'user', content: 'Count slowly.' }] });
  const request = http.request(`${origin}/v1/chat/completions`, {
    method: 'POST',
    agent,
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...(key ? { authorization: `Bearer ${key}` } : {}) },
  });
  request.on('response', (response) => {
    result.status = response.statusCode ?? 0;
    let tail = '';
    response.on('data', (chunk: Buffer) => {
      if (result.chunks === 0) tally.started += 1;
      result.chunks += 1;
      tail = (tail + chunk.toString('latin1')).slice(-64);
    });
    response.on('end', () => {
      result.done = tail.includes('data: [DONE]');
      finish();
    });
    response.on('error', (error) => {
      result.error = error.message;
      finish();
    });
  });
  request.on('error', (error) => {
    result.error = error.message;
    finish();
  });
  request.end(body);
}

/** Polls until `done()` or the bound passes; true when done. */
async function until(done: () => boolean, boundMs: number, report?: () => void): Promise<boolean> {
  const deadline = Date.now() + boundMs;
  let lastReport = Date.now();
  while (!done()) {
    if (Date.now() > deadline) return false;
    if (report && Date.now() - lastReport >= 5_000) {
      report();
      lastReport = Date.now();
    }
    await sleep(100);
  }
  return true;
}

interface Measured {
  path: string;
  idle: Memory;
  open: Memory;
  cpuPercent: number;
  afterClose: Memory;
  ok: number;
  failures: string[];
}

async function measure(path: string, pid: number, origin: string, key: string | undefined): Promise<Measured> {
  const idle = readMemory(pid);
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const tally: Tally = { started: 0, ended: 0, results: [] };
  // Open them in batches, as clients arrive, not in one burst of connects.
  for (let i = 0; i < STREAMS; i += 100) {
    for (let j = i; j < Math.min(STREAMS, i + 100); j++) openStream(agent, origin, key, tally);
    await sleep(50);
  }
  if (!(await until(() => tally.started === STREAMS, 60_000))) log(`${path}: only ${tally.started} of ${STREAMS} streams started within 60 s`);
  log(`${path}: ${tally.started} streams open`);
  await sleep(2_000);
  const cpuBefore = readCpuSeconds(pid);
  const from = performance.now();
  await sleep(WINDOW_S * 1000);
  const cpuPercent = ((readCpuSeconds(pid) - cpuBefore) / ((performance.now() - from) / 1000)) * 100;
  const open = readMemory(pid);
  log(`${path}: CPU ${cpuPercent.toFixed(1)}% of one core, RSS ${mib(open.rssMiB)} with the streams open; waiting for them to end`);
  // Every stream ends within its CHUNKS seconds; a generous bound beyond that reports the rest as failures.
  await until(() => tally.ended === STREAMS, (CHUNKS + 60) * 1000, () => log(`${path}: ${tally.ended} of ${STREAMS} streams ended`));
  agent.destroy();
  await sleep(2_000);
  const afterClose = readMemory(pid);
  const failures = tally.results.filter((r) => r.status !== 200 || !r.done || r.chunks < CHUNKS / 2).map((r) => `status ${r.status}, ${r.chunks} reads, done ${r.done}${r.error ? `, ${r.error}` : ''}`);
  if (failures.length > 0) log(`${path}: ${failures.length} streams did not end whole, e.g. ${failures.slice(0, 3).join('; ')}`);
  return { path, idle, open, cpuPercent, afterClose, ok: STREAMS - failures.length, failures };
}

async function main(): Promise<void> {
  const children = new Children();
  const tmp = mkdtempSync(join(os.tmpdir(), 'gwctl-bench-streams-'));
  const hardStop = setTimeout(() => {
    log(`still running after ${HARD_LIMIT_MS / 1000} s: giving up`);
    children.killAllNow();
    process.exit(1);
  }, HARD_LIMIT_MS);
  hardStop.unref();
  try {
    const env = childEnv(tmp);
    const port = /\{"port":(\d+)\}/;
    const tsx = ['--import', 'tsx'];
    const pinning = pinProcesses(values['no-pin'] !== true);
    log(pinning.describe());
    const slow = await children.start({ name: 'slow upstream', ...pinning.wrap(WORLD_CPU, process.execPath, [...tsx, join(HERE, 'slow-upstream.ts'), String(CHUNKS)]), cwd: ROOT, env, ready: port, timeoutMs: 20_000 });
    const slowOrigin = `http://127.0.0.1:${slow.match[1]}`;
    const hop = await children.start({ name: 'bare hop', ...pinning.wrap(SERVER_CPU, process.execPath, [...tsx, join(HERE, 'bare-hop.ts'), slowOrigin]), cwd: ROOT, env, ready: port, timeoutMs: 20_000 });
    const gateway = await startGateway(children, env, tmp, { providers: [{ name: 'slow', type: 'openai', baseUrl: `${slowOrigin}/v1`, models: ['slow-model'] }] }, {
      pinning,
      nodeArgs: values['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', resolve(values['cpu-prof'])] : [],
    });
    await sleep(2_000);
    const rows = [
      await measure('gateway', gateway.pid, gateway.origin, gateway.key),
      await measure('bare hop', hop.pid, `http://127.0.0.1:${hop.match[1]}`, undefined),
    ];
    const loadAverage = os.loadavg()[0];
    await children.stopAll(10_000);
    const gw = rows[0]!;
    const report = [
      `## ${STREAMS.toLocaleString('en-US')} open streams (${new Date().toISOString().slice(0, 10)})`,
      '',
      `- Each stream: one chat-completions request with \`stream: true\`, answered by a slow fake upstream with one chunk per second for ${CHUNKS} s, then usage and \`[DONE]\`; opened in batches of 100 every 50 ms over keep-alive connections. CPU is the process's user+system time over ${WINDOW_S} s while all streams are open (so ${STREAMS.toLocaleString('en-US')} chunks a second pass through), RSS from /proc. Load average at the end ${loadAverage.toFixed(2)}. Placement: ${pinning.describe("the streams' client and the slow upstream")}.`,
      '',
      markdownTable(
        ['Path', 'RSS idle', 'RSS with streams open', 'peak (VmHWM)', 'RSS 2 s after they ended', 'CPU while open', 'streams ended whole'],
        rows.map((r) => [r.path, mib(r.idle.rssMiB), mib(r.open.rssMiB), mib(r.open.peakMiB), mib(r.afterClose.rssMiB), `${r.cpuPercent.toFixed(1)}% of one core`, `${r.ok} of ${STREAMS}`]),
      ),
      '',
      `- Gateway RSS with ${STREAMS.toLocaleString('en-US')} streams open <= ${GOAL_RSS_MIB} MiB: ${mib(gw.open.rssMiB)} → **${gw.open.rssMiB <= GOAL_RSS_MIB ? 'met' : 'not met'}**.`,
      `- Gateway CPU while they are open <= ${GOAL_CPU_PERCENT}% of one core: ${gw.cpuPercent.toFixed(1)}% → **${gw.cpuPercent <= GOAL_CPU_PERCENT ? 'met' : 'not met'}**.`,
      ...rows.filter((r) => r.failures.length > 0).map((r) => `- ${r.path}: ${r.failures.length} streams did not end whole, e.g. ${r.failures.slice(0, 3).join('; ')}`),
    ].join('\n');
    process.stdout.write(`\n${report}\n`);
    if (rows.some((r) => r.failures.length > 0)) process.exitCode = 1;
  } finally {
    clearTimeout(hardStop);
    await children.stopAll(5_000);
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
