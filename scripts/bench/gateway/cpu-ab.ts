// CPU per request of this checkout's gateway against another built checkout's, path by path: both
// gateways (and the bare hop) run at once against the same fake upstream, and each round loads the
// paths one after the other in the same order, so a busier or quieter moment of a shared machine
// falls on both sides of a comparison. Two gateways of the same build measured 3-7 µs apart in A/A
// runs, the one started first costing more, whichever it was; so the rounds are run in two halves,
// each with freshly started gateways in the other start order (this checkout first, then the
// baseline first), and within a half the two take turns at going first on a path. The figure is
// the user+system CPU of the server under test per answered request (/proc/<pid>/stat), which a
// busy machine moves less than req/s.
//
//   npm run bench:cpu-ab -- --baseline <dir> [--paths gateway,translated,...] [--modes JSON,stream] [--rounds 4 (two halves)] [--duration 4]
//
// <dir>: another built checkout, e.g. `git worktree add <dir> <commit>`, its node_modules copied
// (not linked) and `node scripts/build.mjs` run in it. Loopback only; everything stops by itself.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Children, readCpuSeconds } from './children.ts';
import { pinProcesses, SERVER_CPU, WORLD_CPU } from './cpu-pinning.ts';
import { FAKE_MODEL } from './fake-upstream.ts';
import { benchProviders, geminiMethod, geminiRequestBody, GEMINI_UPSTREAM_MODEL, requestBody, TRANSLATED_MODEL } from './bench-requests.ts';
import { childEnv, ROOT, startGateway } from './gateway-child.ts';
import { runLoad, type Target } from './load.ts';
import { count, markdownTable, median } from './stats.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const HARD_LIMIT_MS = 15 * 60_000;
const CONNECTIONS = 32;
const PATHS = ['hop', 'gateway', 'translated', 'gemini client', 'gemini upstream'] as const;
const MODES = ['JSON', 'stream'] as const;
type PathName = (typeof PATHS)[number];
type Mode = (typeof MODES)[number];

/** The cells of a round: a path's two gateways one after the other, the baseline first in even rounds. */
function inRoundOrder(cells: Cell[], round: number): Cell[] {
  if (round % 2 === 1) return cells;
  const ordered = [...cells];
  for (let i = 0; i + 1 < ordered.length; i += 1) {
    const [a, b] = [ordered[i]!, ordered[i + 1]!];
    if (a.side === 'this checkout' && b.side === 'baseline' && a.path === b.path && a.mode === b.mode) {
      ordered[i] = b;
      ordered[i + 1] = a;
      i += 1;
    }
  }
  return ordered;
}

const SIDES = ['this checkout', 'baseline'] as const;

interface Cell {
  mode: Mode;
  path: PathName;
  /** 'hop', 'this checkout' or 'baseline'. */
  side: string;
  pid: number;
  target: Target;
  /** CPU µs per request, one value a round. */
  cpu: number[];
}

function options() {
  const { values } = parseArgs({
    options: {
      baseline: { type: 'string' },
      paths: { type: 'string', default: PATHS.join(',') },
      modes: { type: 'string', default: MODES.join(',') },
      rounds: { type: 'string', default: '4' },
      duration: { type: 'string', default: '4' },
    },
  });
  const list = <T extends string>(text: string, allowed: readonly T[], name: string): T[] => {
    const items = text.split(',').map((s) => s.trim());
    const wrong = items.filter((s) => !allowed.includes(s as T));
    if (items.length === 0 || wrong.length > 0) throw new Error(`--${name} takes a comma-separated list of ${allowed.join(', ')}; got "${text}".`);
    return items as T[];
  };
  const int = (text: string, name: string, max: number) => {
    const n = Number(text);
    if (!Number.isInteger(n) || n < 1 || n > max) throw new Error(`--${name} must be a whole number from 1 to ${max}, got ${text}.`);
    return n;
  };
  if (!values.baseline) throw new Error('--baseline <dir> is required: another built checkout of gwctl.');
  return {
    baseline: resolve(values.baseline),
    paths: list(values.paths!, PATHS, 'paths'),
    modes: list(values.modes!, MODES, 'modes'),
    rounds: int(values.rounds!, 'rounds', 10),
    duration: int(values.duration!, 'duration', 30),
  };
}

function requestFor(path: PathName, mode: Mode, origin: string, key: string | undefined): Target {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) };
  if (path === 'gemini client') return { url: `${origin}/v1beta/models/${TRANSLATED_MODEL}:${geminiMethod(mode)}`, headers, body: geminiRequestBody() };
  const model = path === 'translated' ? TRANSLATED_MODEL : path === 'gemini upstream' ? GEMINI_UPSTREAM_MODEL : FAKE_MODEL;
  return { url: `${origin}/v1/chat/completions`, headers, body: requestBody(mode, model) };
}

async function main(): Promise<void> {
  const opts = options();
  const tmp = mkdtempSync(join(os.tmpdir(), 'gwctl-bench-cpu-ab-'));
  const children = new Children();
  const limit = setTimeout(() => {
    process.stderr.write('cpu-ab: hard time limit reached, stopping\n');
    children.killAllNow();
    rmSync(tmp, { recursive: true, force: true });
    process.exit(1);
  }, HARD_LIMIT_MS);
  limit.unref();
  const log = (line: string) => process.stderr.write(`[cpu-ab] ${line}\n`);
  try {
    const env = childEnv(tmp);
    const pinning = pinProcesses(true);
    const port = /\{"port":(\d+)\}/;
    const tsx = ['--import', 'tsx'];
    const fake = await children.start({ name: 'fake upstream', ...pinning.wrap(WORLD_CPU, process.execPath, [...tsx, join(HERE, 'fake-upstream.ts')]), cwd: ROOT, env, ready: port, timeoutMs: 20_000 });
    const fakeOrigin = `http://127.0.0.1:${fake.match[1]}`;
    const hop = await children.start({ name: 'bare hop', ...pinning.wrap(SERVER_CPU, process.execPath, [...tsx, join(HERE, 'bare-hop.ts'), fakeOrigin]), cwd: ROOT, env, ready: port, timeoutMs: 20_000 });
    const providers = benchProviders(fakeOrigin);
    const dirFor = (name: string) => {
      const dir = join(tmp, name);
      mkdirSync(dir);
      return dir;
    };
    log(pinning.describe());
    const hopTarget = (mode: Mode): Target => requestFor('hop', mode, `http://127.0.0.1:${hop.match[1]}`, undefined);
    const cells: Cell[] = opts.modes.flatMap((mode) =>
      opts.paths.flatMap((path): Cell[] =>
        path === 'hop'
          ? [{ mode, path, side: 'hop', pid: hop.pid, target: hopTarget(mode), cpu: [] }]
          : SIDES.map((side) => ({ mode, path, side, pid: 0, target: hopTarget(mode), cpu: [] })),
      ),
    );
    let round = 0;
    for (const [half, startOrder] of [SIDES, [...SIDES].reverse()].entries()) {
      // Fresh gateways, started in this half's order; their own data directories.
      const started = new Map<string, Awaited<ReturnType<typeof startGateway>>>();
      for (const side of startOrder) {
        const dir = dirFor(`${side === 'baseline' ? 'baseline' : 'current'}-${half}`);
        started.set(side, await startGateway(children, env, dir, { providers }, side === 'baseline' ? { pinning, name: 'gateway (baseline)', root: opts.baseline } : { pinning, name: 'gateway (this checkout)' }));
      }
      log(`half ${half + 1}: started ${startOrder.join(', then ')}`);
      for (const cell of cells) {
        const gateway = started.get(cell.side);
        if (gateway) {
          cell.pid = gateway.pid;
          cell.target = requestFor(cell.path, cell.mode, gateway.origin, gateway.key);
        }
        const answer = await fetch(cell.target.url, { method: 'POST', headers: cell.target.headers, body: cell.target.body });
        await answer.arrayBuffer();
        if (answer.status !== 200) throw new Error(`${cell.path} (${cell.mode}, ${cell.side}) answered ${answer.status}`);
        await runLoad(cell.target, CONNECTIONS, 1);
      }
      const rounds = half === 0 ? Math.ceil(opts.rounds / 2) : Math.floor(opts.rounds / 2);
      for (let i = 1; i <= rounds; i += 1) {
        round += 1;
        for (const cell of inRoundOrder(cells, i)) {
          const before = readCpuSeconds(cell.pid);
          const result = await runLoad(cell.target, CONNECTIONS, opts.duration);
          if (result.failed > 0) throw new Error(`${cell.path} (${cell.mode}, ${cell.side}): ${result.failed} requests failed`);
          cell.cpu.push(((readCpuSeconds(cell.pid) - before) / result.ok) * 1e6);
          log(`round ${round}/${opts.rounds} ${cell.mode.padEnd(6)} ${cell.path} (${cell.side}) ${cell.cpu.at(-1)!.toFixed(1)} µs/req, ${count(result.rps)} req/s`);
        }
      }
      await Promise.all([...started.values()].map((gateway) => children.stop(gateway.process, 15_000)));
    }
    const rows = opts.modes.flatMap((mode) =>
      opts.paths.map((path) => {
        const of = (side: string) => cells.find((c) => c.mode === mode && c.path === path && c.side === side);
        if (path === 'hop') return [mode, path, `${median(of('hop')!.cpu).toFixed(1)}`, '', '', of('hop')!.cpu.map((v) => v.toFixed(0)).join(', ')];
        const now = median(of('this checkout')!.cpu);
        const before = median(of('baseline')!.cpu);
        return [mode, path, now.toFixed(1), before.toFixed(1), `${now - before >= 0 ? '+' : ''}${(now - before).toFixed(1)}`, `${of('this checkout')!.cpu.map((v) => v.toFixed(0)).join(', ')} / ${of('baseline')!.cpu.map((v) => v.toFixed(0)).join(', ')}`];
      }),
    );
    process.stdout.write(
      [
        `CPU µs per request, median of ${opts.rounds} rounds x ${opts.duration} s (${CONNECTIONS} connections; two halves, the gateways started afresh in the other order for the second); baseline ${opts.baseline}; load average ${os.loadavg()[0]!.toFixed(2)} at the end.`,
        '',
        markdownTable(['Mode', 'Path', 'this checkout', 'baseline', 'difference', 'rounds (this / baseline)'], rows),
        '',
      ].join('\n'),
    );
  } finally {
    await children.stopAll();
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((error: Error) => {
  process.stderr.write(`cpu-ab: ${error.message}\n`);
  process.exit(1);
});
