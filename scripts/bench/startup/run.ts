// Startup benchmark of the built gwctl (`npm run bench:startup [-- --rounds N]`): cold whole-process
// times as ratios to `node -e 0` in the same run, the TUI's first frame, the idle gateway's memory and
// the peak memory of `gwctl --version`. Prints markdown for BENCHMARKS.md; tests never assert timings.
import { spawnSync } from 'node:child_process';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { coldRuns, median, type Command } from './cold-runs.ts';
import { startGateway, type BenchGateway } from './gateway-process.ts';
import { timeToOutput } from './tui-first-frame.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const GWCTL = join(ROOT, 'bin', 'gwctl.js');
const PEAK_HOOK = fileURLToPath(new URL('./report-peak-rss.mjs', import.meta.url));
const roundsArg = process.argv.indexOf('--rounds');
const ROUNDS = roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : 15;
if (!Number.isInteger(ROUNDS) || ROUNDS < 10) throw new Error('--rounds must be a whole number >= 10');

const build = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const work = mkdtempSync(join(tmpdir(), 'gwctl-bench-startup-'));
const home = join(work, 'home');
mkdirSync(join(work, 'npm-global'), { recursive: true });
const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, LANG: process.env.LANG ?? 'C.UTF-8', HOME: home, NO_COLOR: '1', TERM: 'xterm-256color', npm_config_prefix: join(work, 'npm-global') };
mkdirSync(home, { recursive: true });
let gateway: BenchGateway | undefined;
const cleanup = () => rmSync(work, { recursive: true, force: true });
process.once('SIGINT', () => {
  void gateway?.stop();
  cleanup();
  process.exit(130);
});

const load = (): string => loadavg().map((l) => l.toFixed(2)).join(' ');
const fmt = (value: number, digits = 0) => value.toFixed(digits);
const loadBefore = load();
const started = Date.now();

try {
  process.stderr.write('starting gwctl serve (embedded default)…\n');
  gateway = await startGateway(GWCTL, env, home);
  // Idle: started, one key made, nothing asked of it. The young generation the start grew is given
  // back by one collection 10 s after the start (server/settle-after-start.ts), so both moments are
  // reported.
  await new Promise((r) => setTimeout(r, 5_000));
  const startupRssKiB = gateway.rssKiB();
  process.stderr.write('idle gateway memory: waiting 60 s…\n');
  await new Promise((r) => setTimeout(r, 55_000));
  const idleRssKiB = gateway.rssKiB();

  process.stderr.write(`cold runs: ${ROUNDS} rounds…\n`);
  const verifyEnv = { ...env, MSGAPI_AUTH_TOKEN: gateway.key };
  const commands: Command[] = [
    { name: 'node -e 0', args: ['-e', '0'], env },
    { name: 'gwctl --version', args: [GWCTL, '--version'], env },
    { name: 'gwctl explain 404', args: [GWCTL, 'explain', '404'], env },
    { name: 'gwctl verify', args: [GWCTL, 'verify', '--base-url', gateway.textUrl], env: verifyEnv },
  ];
  const samples = coldRuns(commands, ROUNDS, home);
  const baseline = median(samples.get('node -e 0')!);

  process.stderr.write('peak memory…\n');
  const peakOf = (args: string[]): number => {
    const file = join(work, `peak-${Math.random().toString(36).slice(2)}.txt`);
    for (let i = 0; i < 10; i += 1) spawnSync(process.execPath, ['--import', PEAK_HOOK, ...args], { cwd: home, env: { ...env, BENCH_PEAK_RSS_FILE: file }, stdio: 'ignore' });
    return median(readFileSync(file, 'utf8').trim().split('\n').map(Number));
  };
  const versionPeakKiB = peakOf([GWCTL, '--version']);
  const nodePeakKiB = peakOf(['-e', '0']);

  process.stderr.write('TUI first frame…\n');
  const tuiEnv = { ...verifyEnv, GWCTL_BASE_URL: gateway.textUrl };
  const floor: number[] = [];
  const frame: number[] = [];
  for (let i = 0; i < 10; i += 1) {
    floor.push(await timeToOutput([process.execPath, '-e', "process.stdout.write('ready\\n')"], env, home, /ready/));
    // The home screen's menu is in its first frame (its status lines fill in afterwards).
    frame.push(await timeToOutput([process.execPath, GWCTL, 'tui'], tuiEnv, home, /9 Quit/));
  }

  const versionMs = median(samples.get('gwctl --version')!);
  const explainMs = median(samples.get('gwctl explain 404')!);
  const verifyMs = median(samples.get('gwctl verify')!);
  const frameMs = median(frame);
  const rows = [
    ['`node -e 0` (baseline)', `${fmt(baseline)} ms`, '1.00x', '—', '—'],
    ['`gwctl --version`', `${fmt(versionMs)} ms`, `${(versionMs / baseline).toFixed(2)}x`, '≤ 1.5x', versionMs / baseline <= 1.5 ? 'met' : 'missed'],
    ['`gwctl explain 404`', `${fmt(explainMs)} ms`, `${(explainMs / baseline).toFixed(2)}x`, '≤ 2x', explainMs / baseline <= 2 ? 'met' : 'missed'],
    ['`gwctl verify` (local gateway)', `${fmt(verifyMs)} ms`, `${(verifyMs / baseline).toFixed(2)}x`, '≤ 3x', verifyMs / baseline <= 3 ? 'met' : 'missed'],
    ['TUI first frame (pty)', `${fmt(frameMs)} ms`, `floor ${fmt(median(floor))} ms`, '≤ 400 ms', frameMs <= 400 ? 'met' : 'missed'],
    ['idle `gwctl serve` RSS (embedded default), 60 s after start', `${fmt(idleRssKiB / 1024, 1)} MiB`, `5 s after start: ${fmt(startupRssKiB / 1024, 1)} MiB`, '≤ 80 MiB', idleRssKiB / 1024 <= 80 ? 'met' : 'missed'],
    ['peak RSS of `gwctl --version`', `${fmt(versionPeakKiB / 1024, 1)} MiB`, `node -e 0: ${fmt(nodePeakKiB / 1024, 1)} MiB`, '≤ 60 MiB', versionPeakKiB / 1024 <= 60 ? 'met' : 'missed'],
  ];
  const spread = (name: string) => {
    const s = [...samples.get(name)!].sort((a, b) => a - b);
    return `${fmt(s[0]!)}–${fmt(s[s.length - 1]!)}`;
  };
  const cpu = cpus();
  const report = [
    `- Command: \`npm run bench:startup\` (${ROUNDS} rounds; ${Math.round((Date.now() - started) / 1000)} s)`,
    `- Machine: ${cpu.length} × ${cpu[0]?.model ?? '?'}, ${fmt(totalmem() / 2 ** 30, 0)} GiB, Linux ${release()}, Node ${process.version}; load average ${loadBefore} before, ${load()} after`,
    '',
    '| Measure | Median | Ratio / reference | Target | |',
    '| --- | ---: | --- | --- | --- |',
    ...rows.map((r) => `| ${r.join(' | ')} |`),
    '',
    `Spread (min–max ms): node -e 0 ${spread('node -e 0')}, --version ${spread('gwctl --version')}, explain ${spread('gwctl explain 404')}, verify ${spread('gwctl verify')}; TUI ${fmt(Math.min(...frame))}–${fmt(Math.max(...frame))}.`,
  ].join('\n');
  console.log(report);
  mkdirSync(join(ROOT, 'bench-results'), { recursive: true });
  writeFileSync(
    join(ROOT, 'bench-results', `startup-${new Date().toISOString().replace(/[:.]/g, '-')}.json`),
    JSON.stringify({ rounds: ROUNDS, samples: Object.fromEntries(samples), floor, frame, startupRssKiB, idleRssKiB, versionPeakKiB, nodePeakKiB, loadBefore, loadAfter: load() }, null, 2),
  );
  const code = await gateway.stop();
  gateway = undefined;
  if (code !== 0) process.stderr.write(`note: gwctl serve exited ${code} after SIGTERM\n`);
} finally {
  if (gateway) await gateway.stop();
  cleanup();
}
