// Benchmark of the local cache proxy (npm run bench:proxy). Bounded: about 40 s, then it stops.
//   1. HTTP: requests/s and latency of a client talking to a fast fake upstream directly, through a
//      bare node:http pass-through (the practical limit of one Node hop), and through the proxy with
//      its default extension chain. Each target runs in its own process; the load generator
//      (autocannon) runs here. Reported as ratios against direct, measured in the same run.
//   2. Chain: time of the default extension chain on a ~500 KB long-session body, next to the
//      JSON parse + stringify the proxy must do anyway.
// The same file is also the fake upstream and the pass-through when started with --role.
import http from 'node:http';
import os from 'node:os';
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';

const here = fileURLToPath(import.meta.url);
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

const SSE_BODY = [
  'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_b","type":"message","role":"assistant","model":"claude-opus-4-8","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":20,"cache_read_input_tokens":900,"cache_creation_input_tokens":100,"output_tokens":1}}}\n\n',
  'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n',
  ...Array.from({ length: 8 }, (_, i) => `event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"token ${i} café "}}\n\n`),
  'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n',
  'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":9}}\n\n',
  'event: message_stop\ndata: {"type":"message_stop"}\n\n',
].join('');

function listenAndAnnounce(server: http.Server): void {
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1', () => process.stdout.write(`listening on 127.0.0.1:${(server.address() as AddressInfo).port}\n`));
  process.on('SIGTERM', () => process.exit(0));
}

/** Fake upstream: drains the request and answers a small SSE stream at once. */
function runUpstream(): void {
  const body = Buffer.from(SSE_BODY);
  listenAndAnnounce(
    http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'content-length': body.length });
        res.end(body);
      });
    }),
  );
}

/** Bare pass-through: relays method, path, headers and bytes with a keep-alive agent, nothing else. */
function runPassthrough(upstreamPort: number): void {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  listenAndAnnounce(
    http.createServer((req, res) => {
      const up = http.request({ host: '127.0.0.1', port: upstreamPort, method: req.method, path: req.url, headers: req.headers, agent }, (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, upRes.headers);
        upRes.pipe(res);
      });
      up.on('error', () => res.destroy());
      req.pipe(up);
    }),
  );
}

function startChild(args: string[], env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`child ${args.join(' ')} not ready in 20 s`));
    }, 20_000);
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const match = /listening on [\d.]+:(\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ child, port: Number(match[1]) });
      }
    });
    child.on('exit', (code) => reject(new Error(`child exited ${code}`)));
  });
}

interface CannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
}
type Cannon = (opts: Record<string, unknown>) => Promise<CannonResult>;

async function load(cannon: Cannon, port: number, connections: number, seconds: number, body: string): Promise<CannonResult> {
  return cannon({
    url: `http://127.0.0.1:${port}/v1/messages?beta=true`,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'sk-bench', 'anthropic-version': '2023-06-01', 'x-claude-code-session-id': 'bench-session' },
    body,
    connections,
    duration: seconds,
  });
}

async function benchHttp(): Promise<string[]> {
  const require = createRequire(import.meta.url);
  const cannon = require('autocannon') as Cannon;
  const home = mkdtempSync(join(os.tmpdir(), 'cfp-bench-home-'));
  const env = { PATH: process.env.PATH ?? '', HOME: home };
  const children: ChildProcess[] = [];
  try {
    const upstream = await startChild(['--import', 'tsx', here, '--role', 'upstream'], env);
    children.push(upstream.child);
    const pass = await startChild(['--import', 'tsx', here, '--role', 'passthrough', String(upstream.port)], env);
    children.push(pass.child);
    const proxy = await startChild(['--import', 'tsx', join(repoRoot, 'proxy/src/bin/cache-fix-proxy.ts'), 'server'], {
      ...env,
      CACHE_FIX_PROXY_PORT: '0',
      CACHE_FIX_PROXY_UPSTREAM: `http://127.0.0.1:${upstream.port}`,
    });
    children.push(proxy.child);
    const { longSessionBody } = await import('../../../test/proxy/helpers/long-session.ts');
    const small = JSON.stringify({ model: 'claude-opus-4-8', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'Say hi' }] });
    const big = JSON.stringify(longSessionBody({ turns: 60, toolResultBytes: 8_000 }));
    const targets: Array<[string, number]> = [['direct', upstream.port], ['bare pass-through', pass.port], ['proxy', proxy.port]];
    const rows: string[] = [];
    const runs: Array<[string, number, number, string]> = [
      ['small request, SSE reply, 1 connection', 1, 3, small],
      ['small request, SSE reply, 16 connections', 16, 5, small],
      [`${Math.round(big.length / 1024)} KB long-session request, 4 connections`, 4, 4, big],
    ];
    for (const [label, connections, seconds, body] of runs) {
      const results = new Map<string, CannonResult>();
      for (const [name, port] of targets) {
        await load(cannon, port, connections, 1, body);
        const result = await load(cannon, port, connections, seconds, body);
        if (result.non2xx > 0 || result.errors > 0) throw new Error(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
        results.set(name, result);
      }
      const direct = results.get('direct') as CannonResult;
      for (const [name] of targets) {
        const r = results.get(name) as CannonResult;
        rows.push(
          `| ${label} | ${name} | ${Math.round(r.requests.average)} | ${(r.requests.average / direct.requests.average).toFixed(2)}x | ${r.latency.p50} | ${r.latency.p99} | ${(r.latency.average - direct.latency.average).toFixed(2)} |`,
        );
      }
    }
    return rows;
  } finally {
    for (const child of children) child.kill('SIGTERM');
    rmSync(home, { recursive: true, force: true });
  }
}

async function benchChain(): Promise<string[]> {
  const { longSessionBody } = await import('../../../test/proxy/helpers/long-session.ts');
  const { ExtensionRegistry } = await import('../../../proxy/src/transforms/registry.ts');
  const { BUILTIN_EXTENSIONS } = await import('../../../proxy/src/transforms/builtin-extensions.ts');
  const { runRequestHooks } = await import('../../../proxy/src/transforms/pipeline.ts');
  const home = mkdtempSync(join(os.tmpdir(), 'cfp-bench-chain-'));
  try {
    const registry = new ExtensionRegistry({
      builtins: BUILTIN_EXTENSIONS,
      extensionsDir: join(home, 'none'),
      configPath: join(home, 'none.json'),
      services: { env: {}, homeDir: home, warn: () => {}, now: () => new Date() },
    });
    await registry.load();
    const chain = registry.forRoute('messages');
    const raw = Buffer.from(JSON.stringify(longSessionBody({ turns: 60, toolResultBytes: 8_000 })));
    const iterations = 60;
    const time = async (withChain: boolean): Promise<number[]> => {
      const samples: number[] = [];
      for (let i = 0; i < iterations + 5; i += 1) {
        const start = process.hrtime.bigint();
        const body = JSON.parse(raw.toString('utf8'));
        if (withChain) {
          const meta = { route: 'messages' as const, requestId: 'b', sessionId: 'bench', upstreamHost: 'x', requestedModel: 'm', session: {}, extra: {} };
          await runRequestHooks(chain, { body, headers: { 'anthropic-beta': 'claude-code-20250219' }, meta, markChanged: () => {} }, () => {});
        }
        Buffer.from(JSON.stringify(body));
        const ms = Number(process.hrtime.bigint() - start) / 1e6;
        if (i >= 5) samples.push(ms);
      }
      return samples.sort((a, b) => a - b);
    };
    const base = await time(false);
    const full = await time(true);
    const median = (xs: number[]): number => xs[Math.floor(xs.length / 2)];
    const p95 = (xs: number[]): number => xs[Math.floor(xs.length * 0.95)];
    return [
      `| JSON parse + stringify only (unavoidable) | ${median(base).toFixed(2)} | ${p95(base).toFixed(2)} | 1.00x |`,
      `| parse + default chain (${chain.length} extensions) + stringify | ${median(full).toFixed(2)} | ${p95(full).toFixed(2)} | ${(median(full) / median(base)).toFixed(2)}x |`,
      `| the chain alone (difference of medians) | ${(median(full) - median(base)).toFixed(2)} | | |`,
      `body: ${(raw.length / 1024).toFixed(0)} KB, ${iterations} iterations after 5 warm-up`,
    ];
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

async function mainBench(): Promise<void> {
  const started = Date.now();
  const loadBefore = os.loadavg()[0];
  const httpRows = await benchHttp();
  const chain = await benchChain();
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const bodyLine = chain.pop();
  const lines = [
    '',
    '## Local cache proxy',
    '',
    `Machine: ${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}, Node ${process.version};`,
    `1-minute load average ${loadBefore.toFixed(1)} before and ${os.loadavg()[0].toFixed(1)} after the run (other work shares the machine).`,
    'Command: `npm run bench:proxy` (scripts/bench/proxy/run.ts). Fake upstream, bare node:http pass-through and proxy',
    '(from source via tsx, default extensions, `HOME` in a temp dir) each run in their own process on 127.0.0.1;',
    'autocannon 9 drives them from a fourth. Each row is measured after a 1 s warm-up; all in the same run.',
    '',
    '| workload | target | req/s | vs direct | p50 ms | p99 ms | added mean latency ms |',
    '|---|---|---|---|---|---|---|',
    ...httpRows,
    '',
    `Extension chain on a long-session body (${bodyLine}), in-process, ms per request:`,
    '',
    '| step | median ms | p95 ms | vs parse+stringify |',
    '|---|---|---|---|',
    ...chain,
    '',
    `Run took ${((Date.now() - started) / 1000).toFixed(0)} s. The direct ratio mostly measures how fast the trivial fake is (see the`,
    'performance principles); the bare pass-through row is the practical limit of one Node hop.',
    '',
  ];
  process.stdout.write(lines.join('\n'));
}

const roleAt = process.argv.indexOf('--role');
if (roleAt >= 0) {
  const role = process.argv[roleAt + 1];
  if (role === 'upstream') runUpstream();
  else if (role === 'passthrough') runPassthrough(Number(process.argv[roleAt + 2]));
  else throw new Error(`unknown role ${role}`);
} else {
  const deadline = setTimeout(() => {
    process.stderr.write('bench:proxy: gave up after 120 s\n');
    process.exit(1);
  }, 120_000);
  deadline.unref();
  await mainBench();
  process.exit(0);
}
