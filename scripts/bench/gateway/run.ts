// Gateway benchmark (issue 2, DESIGN.md "Performance principles"): one run measures, against the
// same fast fake upstream,
//   direct    the fake upstream itself,
//   bare hop  a bare Node pass-through (undici Pool relay, no auth, no parsing): the yardstick,
//   gateway   `gwctl serve` with auth, routing and usage on (rate limit off),
//   translated  the same gateway serving the chat client from a messages upstream (translation),
//   gemini client  the same gateway serving a Gemini-API client from that messages upstream,
//   gemini upstream  the same gateway serving the chat client from a gemini upstream,
// for chat completions as JSON and as a stream (stream: true, include_usage: true):
//   - throughput under load (autocannon, N connections, several rounds in rotating order),
//   - sequential latency (one request at a time, interleaved), i.e. added latency without queueing,
//   - the gateway process's memory idle after startup and after the load.
// Servers run as child processes; the load generator runs here. Everything runs on loopback and
// stops by itself; children and temporary directories are removed even when the run fails.
//
//   npm run bench:gateway [-- --duration 5 --warmup 2 --rounds 3 --connections 32 --sequential 2000 --cpu-prof <dir>]
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Children, readCpuSeconds, readMemory, type Memory, type Started } from './children.ts';
import { childEnv, startGateway } from './gateway-child.ts';
import { FAKE_MODEL, JSON_BODY, STREAM_BYTES } from './fake-upstream.ts';
import { benchProviders, geminiMethod, geminiRequestBody, GEMINI_UPSTREAM_MODEL, requestBody, TRANSLATED_MODEL } from './bench-requests.ts';
import { fetchOnce, runLoad, runSequential, type LoadResult, type Target } from './load.ts';
import { summarizeProfile } from './profile-summary.ts';
import { pinProcesses, SERVER_CPU, WORLD_CPU, type Pinning } from './cpu-pinning.ts';
import { SETTLE_MS } from '../../../server/settle-after-start.ts';
import { concat, count, markdownTable, median, mib, ms, percentile, ratio, signedMs } from './stats.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../../..');
const HARD_LIMIT_MS = 6 * 60_000;

const ALL_TARGETS = ['direct', 'bare hop', 'gateway', 'translated', 'gemini client', 'gemini upstream', 'pg+redis', 'baseline'] as const;
type TargetName = (typeof ALL_TARGETS)[number];
/**
 * The paths of this run: 'translated' is the same gateway serving a chat client from a messages
 * upstream; 'pg+redis' (the gateway on PostgreSQL + Redis) only with --scale-out.
 */
const SINGLE_INSTANCE: readonly TargetName[] = ['direct', 'bare hop', 'gateway', 'translated', 'gemini client', 'gemini upstream'];
let TARGETS: readonly TargetName[] = SINGLE_INSTANCE;
/** With --baseline: the pass-through paths only, this checkout's gateway against another's (an A/B in one run). */
const AGAINST_BASELINE: readonly TargetName[] = ['direct', 'bare hop', 'gateway', 'baseline'];
/** The paths served through a translation: each is held to the same goal against the hop. */
const TRANSLATED_TARGETS: readonly TargetName[] = ['translated', 'gemini client', 'gemini upstream'];
const GOAL_TRANSLATED_VS_HOP = 0.7;
const GOAL_SCALE_OUT_VS_SQLITE = 0.9;
const MODES = ['JSON', 'stream'] as const;
const TRANSLATED_ROUTE: Record<string, string> = {
  translated: 'a chat client, a messages upstream',
  'gemini client': 'a Gemini-API client, a messages upstream',
  'gemini upstream': 'a chat client, a gemini upstream',
};
type Mode = (typeof MODES)[number];

// Goals: issue 2 ("Benchmark"), DESIGN.md ("Performance principles") and issue 14 (the hop ratios).
const GOAL_VS_DIRECT = 0.6;
const GOAL_VS_HOP = 0.8;
const GOAL_ADDED_P50_MS = 0.3;
const GOAL_ADDED_P99_MS = 1.5;
const GOAL_CPU_VS_HOP = 1.5;
const GOAL_IDLE_RSS_MIB = 80;

interface Options {
  duration: number;
  warmup: number;
  rounds: number;
  connections: number;
  sequential: number;
  sequentialWarmup: number;
  cpuProf?: string;
  scaleOut: boolean;
  noPin: boolean;
  /** Another built checkout whose gateway runs beside this one as the path "baseline". */
  baseline?: string;
  /** The translated paths to measure (direct, bare hop and gateway always run); all when unset. */
  paths?: readonly TargetName[];
}

class UsageError extends Error {}

const OPTIONS = {
  duration: { type: 'string', default: '5' },
  warmup: { type: 'string', default: '2' },
  rounds: { type: 'string', default: '3' },
  connections: { type: 'string', default: '32' },
  sequential: { type: 'string', default: '2000' },
  'sequential-warmup': { type: 'string', default: '300' },
  'cpu-prof': { type: 'string' },
  'scale-out': { type: 'boolean', default: false },
  'no-pin': { type: 'boolean', default: false },
  baseline: { type: 'string' },
  paths: { type: 'string' },
  help: { type: 'boolean', default: false },
} as const;

function translatedPaths(list: string): TargetName[] {
  const names = list.split(',').map((n) => n.trim()).filter((n) => n.length > 0);
  const unknown = names.filter((n) => !TRANSLATED_TARGETS.includes(n as TargetName));
  if (names.length === 0 || unknown.length > 0) throw new UsageError(`--paths takes a comma-separated list of ${TRANSLATED_TARGETS.join(', ')}; got "${list}".`);
  return names as TargetName[];
}

function parseOptions(argv: string[]): Options {
  let values: ReturnType<typeof parseArgs<{ args: string[]; options: typeof OPTIONS; strict: true }>>['values'];
  try {
    ({ values } = parseArgs({ args: argv, options: OPTIONS, strict: true }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) {
    process.stdout.write(
      'npm run bench:gateway -- [--duration S] [--warmup S] [--rounds N] [--connections N (<= 50)] [--sequential N] [--sequential-warmup N] [--cpu-prof DIR] [--scale-out] [--no-pin] [--baseline DIR] [--paths P,...]\n' +
        '  --scale-out  also run the gateway on PostgreSQL (127.0.0.1:5432, a database of its own) + Redis (127.0.0.1:6379, a key prefix of its own)\n' +
        '  --no-pin     do not pin processes to cores (by default the server under test has core 1, the load generator and the fake upstream core 0)\n' +
        `  --paths P,...   only these translated paths beside direct, bare hop and gateway (${TRANSLATED_TARGETS.join(', ')})\n` +
        '  --baseline DIR  also run the gateway of another built checkout (e.g. an earlier commit) as the path "baseline"; only the pass-through paths are measured then\n',
    );
    process.exit(0);
  }
  const int = (name: string, value: string, min: number, max: number) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, got ${value}.`);
    return n;
  };
  return {
    duration: int('duration', values.duration!, 1, 30),
    warmup: int('warmup', values.warmup!, 0, 10),
    rounds: int('rounds', values.rounds!, 1, 5),
    connections: int('connections', values.connections!, 1, 50),
    sequential: int('sequential', values.sequential!, 100, 20_000),
    sequentialWarmup: int('sequential-warmup', values['sequential-warmup']!, 0, 5_000),
    cpuProf: values['cpu-prof'] ? resolve(values['cpu-prof']) : undefined,
    scaleOut: values['scale-out'] === true,
    noPin: values['no-pin'] === true,
    baseline: values.baseline ? resolve(values.baseline) : undefined,
    paths: values.paths === undefined ? undefined : translatedPaths(values.paths),
  };
}

const log = (line: string) => process.stderr.write(`[bench:gateway] ${line}\n`);

/** The Gemini-client path answers the messages upstream's text as a Gemini answer (or SSE chunks). */
function checkGeminiClient(mode: Mode, text: string): void {
  if (mode === 'JSON') {
    const parts = (JSON.parse(text) as { candidates?: Array<{ content?: { parts?: Array<{ text?: string }> } }> }).candidates?.[0]?.content?.parts ?? [];
    if (parts.map((p) => p.text).join('') !== 'Hello! This is a fixed answer from the benchmark upstream.') throw new Error(`gemini client (JSON) answered something else: ${text.slice(0, 400)}`);
    return;
  }
  const words = Array.from({ length: 8 }, (_, i) => ` word${i}`).join('');
  const received = [...text.matchAll(/"text":"([^"]*)"/g)].map((m) => m[1]).join('');
  if (received !== words || !/"finishReason":"STOP"/.test(text)) throw new Error(`gemini client (stream) answered something else: ${text.slice(0, 600)}`);
}

/** The translated paths answer the upstream's text as a chat completion (or chunks ending with [DONE]). */
function checkTranslated(mode: Mode, text: string): void {
  if (mode === 'JSON') {
    const content = (JSON.parse(text) as { choices?: Array<{ message?: { content?: string } }> }).choices?.[0]?.message?.content;
    if (content !== 'Hello! This is a fixed answer from the benchmark upstream.') throw new Error(`translated (JSON) answered something else: ${text.slice(0, 400)}`);
    return;
  }
  const words = Array.from({ length: 8 }, (_, i) => ` word${i}`).join('');
  const received = [...text.matchAll(/"content":"([^"]*)"/g)].map((m) => m[1]).join('');
  if (received !== words || !text.trimEnd().endsWith('data: [DONE]')) throw new Error(`translated (stream) answered something else: ${text.slice(0, 600)}`);
}

interface Cell {
  mode: Mode;
  target: TargetName;
  runs: LoadResult[];
  /** CPU seconds used by the server under test (fake, hop or gateway) during the runs. */
  serverCpuS: number;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const startedAt = Date.now();
  const children = new Children();
  const tmp = mkdtempSync(join(os.tmpdir(), 'gwctl-bench-gateway-'));
  let cleaned = false;
  const cleanupSync = () => {
    if (cleaned) return;
    cleaned = true;
    children.killAllNow();
    rmSync(tmp, { recursive: true, force: true });
  };
  process.once('exit', cleanupSync);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log(`${signal}: stopping the servers`);
      void children.stopAll(2_000).finally(() => process.exit(130));
    });
  }
  setTimeout(() => {
    log(`still running after ${HARD_LIMIT_MS / 1000} s: giving up`);
    process.exit(1);
  }, HARD_LIMIT_MS).unref();

  try {
    await run(options, children, tmp, startedAt);
  } finally {
    await children.stopAll(5_000);
    cleanupSync();
  }
}

async function run(options: Options, children: Children, tmp: string, startedAt: number): Promise<void> {
  const loadAverageAtStart = os.loadavg()[0];
  if (loadAverageAtStart > 1) log(`warning: load average ${loadAverageAtStart.toFixed(2)} before the run: other work on this machine will inflate the numbers`);
  const env = childEnv(tmp);
  const tsx = ['--import', 'tsx'];
  const port = /\{"port":(\d+)\}/;
  const pinning = pinProcesses(!options.noPin);
  log(pinning.describe());

  log('starting the fake upstream, the bare hop and the gateway');
  const fake = await children.start({ name: 'fake upstream', ...pinning.wrap(WORLD_CPU, process.execPath, [...tsx, join(HERE, 'fake-upstream.ts')]), cwd: ROOT, env, ready: port, timeoutMs: 20_000 });
  const fakeOrigin = `http://127.0.0.1:${fake.match[1]}`;
  const hop = await children.start({ name: 'bare hop', ...pinning.wrap(SERVER_CPU, process.execPath, [...tsx, join(HERE, 'bare-hop.ts'), fakeOrigin]), cwd: ROOT, env, ready: port, timeoutMs: 20_000 });
  const hopOrigin = `http://127.0.0.1:${hop.match[1]}`;

  const profileDir = options.cpuProf;
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const gatewaySpawnedAt = Date.now();
  const providers = benchProviders(fakeOrigin);
  const gateway = await startGateway(children, env, tmp, { providers }, {
    nodeArgs: profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [],
    pinning,
  });
  const { origin: gatewayOrigin, key } = gateway;
  const gatewayListeningAt = Date.now();
  const scaleOut = options.scaleOut ? await startScaleOutGateway(children, env, join(tmp, 'providers.json'), pinning) : undefined;
  let baseline: Awaited<ReturnType<typeof startGateway>> | undefined;
  if (options.baseline) {
    log(`starting the baseline gateway from ${options.baseline}`);
    const baselineTmp = join(tmp, 'baseline');
    mkdirSync(baselineTmp);
    baseline = await startGateway(children, env, baselineTmp, { providers }, { pinning, name: 'baseline gateway', root: options.baseline });
  }
  TARGETS = baseline ? AGAINST_BASELINE : scaleOut ? ALL_TARGETS.filter((t) => t !== 'baseline') : SINGLE_INSTANCE;
  const paths = options.paths;
  if (paths) TARGETS = TARGETS.filter((t) => !TRANSLATED_TARGETS.includes(t) || paths.includes(t));

  // Idle: started and settled (the gateway's one collection after start, SETTLE_MS after it
  // listens, has run), no request served yet.
  await sleep(Math.max(2_000, gatewayListeningAt + SETTLE_MS + 2_000 - Date.now()));
  const idle = { gateway: readMemory(gateway.pid), hop: readMemory(hop.pid), fake: readMemory(fake.pid) };
  log(`idle RSS: gateway ${mib(idle.gateway.rssMiB)}, bare hop ${mib(idle.hop.rssMiB)}, fake upstream ${mib(idle.fake.rssMiB)}`);

  const origins: Record<TargetName, string> = {
    direct: fakeOrigin,
    'bare hop': hopOrigin,
    gateway: gatewayOrigin,
    translated: gatewayOrigin,
    'gemini client': gatewayOrigin,
    'gemini upstream': gatewayOrigin,
    'pg+redis': scaleOut?.origin ?? '',
    baseline: baseline?.origin ?? '',
  };
  const keys: Partial<Record<TargetName, string>> = { gateway: key, translated: key, 'gemini client': key, 'gemini upstream': key, 'pg+redis': scaleOut?.key, baseline: baseline?.key };
  const target = (name: TargetName, mode: Mode): Target => {
    const headers = { 'content-type': 'application/json', ...(keys[name] ? { authorization: `Bearer ${keys[name]}` } : {}) };
    if (name === 'gemini client') {
      return { url: `${origins[name]}/v1beta/models/${TRANSLATED_MODEL}:${geminiMethod(mode)}`, headers, body: geminiRequestBody() };
    }
    const model = name === 'translated' ? TRANSLATED_MODEL : name === 'gemini upstream' ? GEMINI_UPSTREAM_MODEL : FAKE_MODEL;
    return { url: `${origins[name]}/v1/chat/completions`, headers, body: requestBody(mode, model) };
  };

  // Every path must answer 200 with the upstream's bytes (the translated one: the same text in the
  // chat protocol) before any number means anything.
  for (const mode of MODES) {
    for (const name of TARGETS) {
      const answer = await fetchOnce(target(name, mode));
      if (answer.status !== 200) throw new Error(`${name} (${mode}) answered ${answer.status}: ${answer.body.toString('utf8').slice(0, 300)}`);
      if (name === 'gemini client') {
        checkGeminiClient(mode, answer.body.toString('utf8'));
        continue;
      }
      if (name === 'translated' || name === 'gemini upstream') {
        checkTranslated(mode, answer.body.toString('utf8'));
        continue;
      }
      const expected = mode === 'JSON' ? JSON_BODY : STREAM_BYTES;
      if (!answer.body.equals(expected)) throw new Error(`${name} (${mode}) did not relay the upstream's bytes unchanged:\n${answer.body.toString('utf8').slice(0, 600)}`);
    }
  }
  log('all paths answer 200 with the upstream bytes (JSON and stream), the translated path with the same text');

  if (options.warmup > 0) {
    log(`warm-up: ${options.warmup} s per path and mode`);
    for (const mode of MODES) for (const name of TARGETS) await runLoad(target(name, mode), options.connections, options.warmup);
  }

  log(`sequential: ${options.sequential} requests per path and mode, one at a time (after ${options.sequentialWarmup} warm-up)`);
  const sequential = new Map<Mode, Map<string, Float64Array>>();
  for (const mode of MODES) {
    sequential.set(mode, await runSequential(TARGETS.map((name) => ({ name, ...target(name, mode) })), options.sequentialWarmup, options.sequential));
  }

  const pidOf: Record<TargetName, number> = {
    direct: fake.pid,
    'bare hop': hop.pid,
    gateway: gateway.pid,
    translated: gateway.pid,
    'gemini client': gateway.pid,
    'gemini upstream': gateway.pid,
    'pg+redis': scaleOut?.pid ?? 0,
    baseline: baseline?.pid ?? 0,
  };
  const lookupsBefore = scaleOut ? await scaleOut.databaseLookups() : 0;
  const cells: Cell[] = MODES.flatMap((mode) => TARGETS.map((t) => ({ mode, target: t, runs: [] as LoadResult[], serverCpuS: 0 })));
  const loadStartedAt = Date.now();
  const cell = (mode: Mode, name: TargetName) => cells.find((c) => c.mode === mode && c.target === name)!;
  for (let round = 0; round < options.rounds; round++) {
    // Rotate the order so no path always runs first or right after another.
    const modes = round % 2 === 0 ? MODES : [...MODES].reverse();
    for (const mode of modes) {
      for (let i = 0; i < TARGETS.length; i++) {
        const name = TARGETS[(i + round) % TARGETS.length];
        const cpuBefore = readCpuSeconds(pidOf[name]);
        const result = await runLoad(target(name, mode), options.connections, options.duration);
        if (result.failed > 0) throw new Error(`${name} (${mode}): ${result.failed} failed requests under load`);
        cell(mode, name).runs.push(result);
        cell(mode, name).serverCpuS += readCpuSeconds(pidOf[name]) - cpuBefore;
        log(`round ${round + 1}/${options.rounds} ${mode.padEnd(6)} ${name.padEnd(8)} ${count(result.rps).padStart(7)} req/s  p50 ${ms(percentile(result.latencies, 50))} ms`);
      }
    }
  }

  const loadEndedAt = Date.now();
  const scaleOutLookups = scaleOut ? { lookups: (await scaleOut.databaseLookups()) - lookupsBefore, requests: cells.filter((c) => c.target === 'pg+redis').reduce((n, c) => n + c.runs.reduce((m, r) => m + r.ok, 0), 0) } : undefined;
  await sleep(2_000);
  const afterLoad = readMemory(gateway.pid);
  log(`gateway RSS after load: ${mib(afterLoad.rssMiB)} (peak ${mib(afterLoad.peakMiB)})`);

  if (scaleOut) {
    await children.stop(scaleOut.process, 20_000);
    await scaleOut.dropDatabase();
  }
  if (baseline) await children.stop(baseline.process, 20_000);
  const stopped = await children.stop(gateway.process, 20_000);
  if (stopped.code !== 0) log(`warning: the gateway exited with code ${stopped.code} signal ${stopped.signal} on SIGTERM`);
  const elapsedS = (Date.now() - startedAt) / 1000;

  const report = buildReport(options, cells, sequential, { idle, afterLoad }, elapsedS, { start: loadAverageAtStart, end: os.loadavg()[0] }, pinning.describe(), scaleOutLookups);
  process.stdout.write(`\n${report}\n`);
  if (profileDir) printProfile(profileDir, gateway, loadStartedAt - gatewaySpawnedAt, loadEndedAt - gatewaySpawnedAt);
}

interface ScaleOutGateway {
  origin: string;
  key: string;
  pid: number;
  process: Started['process'];
  databaseLookups(): Promise<number>;
  dropDatabase(): Promise<void>;
}

/** The same gateway on a PostgreSQL database of its own and a Redis key prefix of its own. */
async function startScaleOutGateway(children: Children, env: NodeJS.ProcessEnv, providersFile: string, pinning: Pinning): Promise<ScaleOutGateway> {
  const { default: pg } = await import('pg');
  const adminUrl = process.env.GWCTL_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const name = `gwctl_bench_${process.pid}`;
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const metricsToken = `bench-${process.pid}-${Date.now()}`;
  const scaleEnv = { ...env, GWCTL_DATABASE_URL: url.toString(), GWCTL_REDIS_URL: process.env.GWCTL_BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379', GWCTL_REDIS_PREFIX: `gwctl-bench-${process.pid}:`, GWCTL_METRICS_TOKEN: metricsToken };
  const gwctl = (args: string[], input?: string) => children.run(process.execPath, [join(ROOT, 'bin/gwctl.js'), ...args], { cwd: ROOT, env: scaleEnv, input, timeoutMs: 30_000 });
  await gwctl(['admin', 'user', 'add', 'admin', '--admin', '--password-stdin'], 'bench-admin-password\n');
  const key = (JSON.parse(await gwctl(['admin', 'key', 'create', '--user', 'admin', '--name', 'bench', '--json'])) as { key: string }).key;
  log('starting the gateway on PostgreSQL + Redis');
  const started = await children.start({
    name: 'gateway pg+redis',
    ...pinning.wrap(SERVER_CPU, process.execPath, [join(ROOT, 'bin/gwctl.js'), 'serve', '--port', '0', '--image-port', '0', '--config', providersFile, '--rate-limit', '0', '--log-level', 'warn']),
    cwd: ROOT,
    env: scaleEnv,
    ready: /text API\s+(http:\/\/127\.0\.0\.1:\d+)/,
    timeoutMs: 60_000,
    guard: true,
  });
  const origin = started.match[1]!;
  return {
    origin,
    key,
    pid: started.pid,
    process: started.process,
    async databaseLookups() {
      const text = await (await fetch(`${origin}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).text();
      return Number(/^gwctl_key_lookups_database (\S+)$/m.exec(text)?.[1] ?? NaN);
    },
    async dropDatabase() {
      await admin.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
      await admin.end().catch(() => undefined);
    },
  };
}

/** Prints the gateway's profile over the throughput rounds only (fromMs..toMs after its spawn). */
function printProfile(dir: string, gateway: Started, fromMs: number, toMs: number): void {
  const file = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile') && f.includes(`.${gateway.pid}.0.`)) // main thread
    .map((f) => join(dir, f))[0];
  if (!file) {
    log(`no CPU profile for pid ${gateway.pid} in ${dir}`);
    return;
  }
  const summary = summarizeProfile(JSON.parse(readFileSync(file, 'utf8')), ROOT, { fromMs, toMs });
  process.stdout.write(`\nCPU profile of the gateway during the throughput rounds (profiler on: these numbers are slower): ${file}\n\n${summary}\n`);
}

function buildReport(
  options: Options,
  cells: Cell[],
  sequential: Map<Mode, Map<string, Float64Array>>,
  memory: { idle: Record<'gateway' | 'hop' | 'fake', Memory>; afterLoad: Memory },
  elapsedS: number,
  loadAverage: { start: number; end: number },
  placement: string,
  scaleOutLookups?: { lookups: number; requests: number },
): string {
  const stats = (mode: Mode, name: TargetName) => {
    const c = cells.find((x) => x.mode === mode && x.target === name)!;
    const rpsRuns = c.runs.map((r) => r.rps);
    const latencies = concat(c.runs.map((r) => r.latencies));
    const ok = c.runs.reduce((n, r) => n + r.ok, 0);
    return {
      rps: median(rpsRuns),
      min: Math.min(...rpsRuns),
      max: Math.max(...rpsRuns),
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      cpuUsPerRequest: (c.serverCpuS / ok) * 1e6,
    };
  };
  const dash = '–';
  const loadRows: string[][] = [];
  const verdicts = {
    vsDirect: { JSON: 0, stream: 0 } as Record<Mode, number>,
    vsHop: { JSON: 0, stream: 0 } as Record<Mode, number>,
    /** Per translated path: req/s against the hop's. */
    translatedVsHop: Object.fromEntries(TRANSLATED_TARGETS.map((t) => [t, { JSON: 0, stream: 0 }])) as Record<string, Record<Mode, number>>,
    overHopSeqP50: { JSON: 0, stream: 0 } as Record<Mode, number>,
    overHopSeqP99: { JSON: 0, stream: 0 } as Record<Mode, number>,
  };
  const cpu = {} as Record<Mode, { gateway: number; hop: number }>;
  for (const mode of MODES) {
    const direct = stats(mode, 'direct');
    const hop = stats(mode, 'bare hop');
    for (const name of TARGETS) {
      const s = stats(mode, name);
      const spread = `${count(s.min)}–${count(s.max)}`;
      loadRows.push([
        mode,
        name,
        count(s.rps),
        spread,
        ms(s.p50),
        ms(s.p99),
        count(s.cpuUsPerRequest),
        name === 'direct' ? dash : ratio(s.rps / direct.rps),
        name === 'gateway' || TRANSLATED_TARGETS.includes(name) || name === 'pg+redis' || name === 'baseline' ? ratio(s.rps / hop.rps) : dash,
        name === 'direct' ? dash : signedMs(s.p50 - direct.p50),
        name === 'direct' ? dash : signedMs(s.p99 - direct.p99),
      ]);
      if (name === 'gateway') {
        verdicts.vsDirect[mode] = s.rps / direct.rps;
        verdicts.vsHop[mode] = s.rps / hop.rps;
        cpu[mode] = { gateway: s.cpuUsPerRequest, hop: hop.cpuUsPerRequest };
      }
      if (TRANSLATED_TARGETS.includes(name)) verdicts.translatedVsHop[name]![mode] = s.rps / hop.rps;
    }
  }

  const seqRows: string[][] = [];
  for (const mode of MODES) {
    const series = sequential.get(mode)!;
    const directP50 = percentile(series.get('direct')!, 50);
    const directP99 = percentile(series.get('direct')!, 99);
    const hopP50 = percentile(series.get('bare hop')!, 50);
    const hopP99 = percentile(series.get('bare hop')!, 99);
    for (const name of TARGETS) {
      const samples = series.get(name)!;
      const p50 = percentile(samples, 50);
      const p99 = percentile(samples, 99);
      const behindHop = name !== 'direct' && name !== 'bare hop';
      seqRows.push([
        mode,
        name,
        ms(p50, 3),
        ms(p99, 3),
        name === 'direct' ? dash : signedMs(p50 - directP50, 3),
        name === 'direct' ? dash : signedMs(p99 - directP99, 3),
        behindHop ? signedMs(p50 - hopP50, 3) : dash,
        behindHop ? signedMs(p99 - hopP99, 3) : dash,
      ]);
      if (name === 'gateway') {
        verdicts.overHopSeqP50[mode] = p50 - hopP50;
        verdicts.overHopSeqP99[mode] = p99 - hopP99;
      }
    }
  }

  const memRows = [
    ['gateway', mib(memory.idle.gateway.rssMiB), mib(memory.afterLoad.rssMiB), mib(memory.afterLoad.peakMiB)],
    ['bare hop', mib(memory.idle.hop.rssMiB), dash, dash],
    ['fake upstream', mib(memory.idle.fake.rssMiB), dash, dash],
  ];

  const met = (ok: boolean) => (ok ? '**met**' : '**not met**');
  const both = (values: Record<Mode, number>, fmt: (v: number) => string) => `JSON ${fmt(values.JSON)}, stream ${fmt(values.stream)}`;
  const pct = (v: number) => `${(v * 100).toFixed(0)}%`;
  const targets = [
    `- Through-gateway throughput >= 60% of direct (issue 2): ${both(verdicts.vsDirect, pct)} → ${met(MODES.every((m) => verdicts.vsDirect[m] >= GOAL_VS_DIRECT))}.`,
    `- Gateway >= 0.8x the bare Node hop's req/s (issue 14): ${both(verdicts.vsHop, ratio)} → ${met(MODES.every((m) => verdicts.vsHop[m] >= GOAL_VS_HOP))}.`,
    `- Gateway CPU per request <= 1.5x the hop's (issue 14; less sensitive to a busy machine): ${MODES.map((m) => `${m} ${count(cpu[m].gateway)} µs vs ${count(cpu[m].hop)} µs = ${ratio(cpu[m].gateway / cpu[m].hop)}`).join(', ')} → ${met(MODES.every((m) => cpu[m].gateway <= GOAL_CPU_VS_HOP * cpu[m].hop))}.`,
    `- Added latency over the hop, sequential (no queueing): p50 <= 0.3 ms: ${both(verdicts.overHopSeqP50, (v) => `${signedMs(v, 3)} ms`)} → ${met(MODES.every((m) => verdicts.overHopSeqP50[m] <= GOAL_ADDED_P50_MS))}; p99 <= 1.5 ms: ${both(verdicts.overHopSeqP99, (v) => `${signedMs(v, 3)} ms`)} → ${met(MODES.every((m) => verdicts.overHopSeqP99[m] <= GOAL_ADDED_P99_MS))}.`,
    ...TRANSLATED_TARGETS.filter((t) => TARGETS.includes(t)).map(
      (t) =>
        `- Translated route "${t}" (${TRANSLATED_ROUTE[t]}) >= 0.7x the bare hop's req/s: ${both(verdicts.translatedVsHop[t]!, ratio)} → ${met(MODES.every((m) => verdicts.translatedVsHop[t]![m]! >= GOAL_TRANSLATED_VS_HOP))}.`,
    ),
    `- Idle gateway RSS < 80 MB: ${mib(memory.idle.gateway.rssMiB)} → ${met(memory.idle.gateway.rssMiB * 1.048576 < GOAL_IDLE_RSS_MIB)}.`,
  ];
  if (TARGETS.includes('baseline')) {
    const against = (mode: Mode) => {
      const hop = stats(mode, 'bare hop');
      const now = stats(mode, 'gateway');
      const before = stats(mode, 'baseline');
      const change = now.rps / hop.rps - before.rps / hop.rps;
      return `${mode} ${ratio(now.rps / hop.rps)} vs ${ratio(before.rps / hop.rps)} the hop's req/s (${change >= 0 ? '+' : ''}${change.toFixed(2)}), CPU ${count(now.cpuUsPerRequest)} vs ${count(before.cpuUsPerRequest)} µs a request (${signedMs(now.cpuUsPerRequest - before.cpuUsPerRequest, 1)} µs)`;
    };
    targets.push(`- This checkout's gateway against the baseline (${options.baseline}): ${MODES.map(against).join('; ')}.`);
  }
  if (scaleOutLookups) {
    const vsSqlite = Object.fromEntries(MODES.map((m) => [m, stats(m, 'pg+redis').rps / stats(m, 'gateway').rps])) as Record<Mode, number>;
    targets.push(
      `- Gateway on PostgreSQL + Redis >= 0.9x the SQLite gateway (issue 13): ${both(vsSqlite, ratio)} → ${met(MODES.every((m) => vsSqlite[m] >= GOAL_SCALE_OUT_VS_SQLITE))}.`,
      `  Key lookups that went to PostgreSQL during the load (gwctl_key_lookups_database): ${count(scaleOutLookups.lookups)} for ${count(scaleOutLookups.requests)} requests.`,
    );
  }

  const defaults = parseOptions([]);
  const args = (Object.keys(defaults) as (keyof Options)[])
    .filter((k) => options[k] !== defaults[k])
    .map((k) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}${typeof options[k] === 'boolean' ? '' : ` ${options[k]}`}`);
  const command = `npm run bench:gateway${args.length ? ` -- ${args.join(' ')}` : ''}`;
  const cpus = os.cpus();
  // os.cpus(), not availableParallelism(): the benchmark pinned itself to one core.
  const machine = `${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown CPU'}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()}, Node ${process.version}`;

  return [
    `### Run of ${new Date().toISOString().slice(0, 10)}`,
    '',
    `- Command: \`${command}\` (${elapsedS.toFixed(0)} s)`,
    `- Machine: ${machine}; 1-minute load average ${loadAverage.start.toFixed(2)} before the run, ${loadAverage.end.toFixed(2)} after (the benchmark itself keeps ~2 busy).`,
    `- Placement: ${placement}.`,
    `- Load: autocannon, ${options.connections} keep-alive connections, ${options.rounds} rounds x ${options.duration} s per path and mode (rotating order, after ${options.warmup} s warm-up each); req/s is the median of the rounds, latencies are over all rounds' responses; server CPU µs/req is the user+system CPU of the process under test (the fake upstream for direct) per answered request. Sequential: ${options.sequential} requests per path and mode, one at a time, interleaved across paths, after ${options.sequentialWarmup} warm-up.`,
    `- Request: chat completion, ~${requestBody('JSON').length} B body; answer ${JSON_BODY.length} B JSON, or a stream of ${STREAM_BYTES.length} B (10 chunks + usage chunk + [DONE], one write each) for \`stream: true, stream_options.include_usage: true\`.`,
    '',
    '**Throughput under load**',
    '',
    markdownTable(['Mode', 'Path', 'req/s', 'rounds (min–max)', 'p50 ms', 'p99 ms', 'server CPU µs/req', 'vs direct', 'vs bare hop', 'added p50 ms', 'added p99 ms'], loadRows),
    '',
    '**Sequential latency (one request at a time)**',
    '',
    markdownTable(['Mode', 'Path', 'p50 ms', 'p99 ms', 'added p50 ms', 'added p99 ms', 'over hop p50 ms', 'over hop p99 ms'], seqRows),
    '',
    '**Memory (VmRSS from /proc)**',
    '',
    markdownTable(['Process', `idle (${(SETTLE_MS + 2_000) / 1000} s after listening)`, 'after load (+2 s)', 'peak (VmHWM)'], memRows),
    '',
    '**Targets**',
    '',
    ...targets,
  ].join('\n');
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) {
    log(`${error.message.replace(/\.?$/, '.')} See --help.`);
    process.exitCode = 2;
    return;
  }
  log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
});
