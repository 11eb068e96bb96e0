// Translation benchmark (issue 4): the cost of protocol translation, measured against same-protocol
// pass-through through the same gateway, against the same fake upstream, in the same run.
//   chat client     -> chat upstream (pass-through)  vs  chat client     -> messages upstream (translated)
//   messages client -> messages upstream (pass-through) vs messages client -> chat upstream (translated)
//   chat client     -> chat upstream (pass-through)  vs  Responses client -> chat or messages upstream (translated)
// each as JSON and as a stream: throughput (autocannon, rotating rounds), gateway CPU per request,
// sequential latency, and the gateway's own x-gateway-overhead-ms. Everything runs on loopback,
// stops by itself (hard limit), and removes its temporary directory, also on failure or Ctrl+C.
//
//   node --import tsx scripts/bench/translation/run.ts [--duration 3 --rounds 2 --warmup 1 --connections 16 --sequential 400]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { SseParser } from '../../../core/protocol/sse.ts';
import { fetchOnce, median, percentile, sequential, throughput, type Target } from './measure.ts';
import { ChildSet, cpuSeconds } from './processes.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../../..');
const HARD_LIMIT_MS = 170_000;

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '2' },
    warmup: { type: 'string', default: '1' },
    connections: { type: 'string', default: '16' },
    sequential: { type: 'string', default: '400' },
  },
});
const opts = {
  duration: Number(values.duration),
  rounds: Number(values.rounds),
  warmup: Number(values.warmup),
  connections: Math.min(50, Number(values.connections)),
  sequential: Number(values.sequential),
};

type Mode = 'JSON' | 'stream';
type Client = 'chat-completions' | 'messages' | 'responses';
interface Pair {
  /** The client of the translated path (and of the pass-through path, except for Responses clients). */
  client: Client;
  /** What the row compares, for the report. */
  label: string;
  mode: Mode;
  pass: Target;
  translated: Target;
}

const children = new ChildSet();
const tmp = mkdtempSync(join(os.tmpdir(), 'gwctl-bench-translation-'));
let cleaned = false;
async function cleanup(): Promise<void> {
  if (cleaned) return;
  cleaned = true;
  await children.stopAll();
  rmSync(tmp, { recursive: true, force: true });
}
const hardLimit = setTimeout(() => {
  process.stderr.write(`translation benchmark: hard limit of ${HARD_LIMIT_MS / 1000} s reached, stopping\n`);
  children.killNow();
  rmSync(tmp, { recursive: true, force: true });
  process.exit(3);
}, HARD_LIMIT_MS);
hardLimit.unref();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void cleanup().finally(() => process.exit(130)));
}
process.once('exit', () => children.killNow());

function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(GWCTL_|OPENAI_|ANTHROPIC_|XDG_)/.test(k) && k !== 'NODE_OPTIONS') env[k] = v;
  const home = join(tmp, 'home');
  return { ...env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local', 'share'), ...extra };
}

function body(client: Client, model: string, mode: Mode): string {
  const messages = [{ role: 'user', content: 'Say something short about gateways.' }];
  if (client === 'responses') {
    return JSON.stringify({ model, input: messages, max_output_tokens: 64, ...(mode === 'stream' ? { stream: true } : {}) });
  }
  if (client === 'chat-completions') {
    return JSON.stringify({ model, messages, max_tokens: 64, ...(mode === 'stream' ? { stream: true, stream_options: { include_usage: true } } : {}) });
  }
  return JSON.stringify({ model, max_tokens: 64, messages, ...(mode === 'stream' ? { stream: true } : {}) });
}

/** Checks a path answers 200 in the client's protocol with the fake's text before it is measured. */
function verify(target: Target, client: Client, mode: Mode, answer: { status: number; text: string }): void {
  const fail = (why: string) => {
    throw new Error(`${target.name}: ${why}\n${answer.text.slice(0, 500)}`);
  };
  if (answer.status !== 200) fail(`answered ${answer.status}`);
  const text = 'The gateway translates each event as it arrives, nothing buffered.';
  if (mode === 'JSON') {
    const json = JSON.parse(answer.text);
    const got = client === 'chat-completions' ? json.choices?.[0]?.message?.content : client === 'responses' ? json.output?.[0]?.content?.[0]?.text : json.content?.[0]?.text;
    if (got !== text) fail('wrong answer');
    return;
  }
  const parser = new SseParser();
  const last = [...parser.push(answer.text), ...parser.end()].filter((e) => !e.comment).at(-1);
  const tail = client === 'chat-completions' ? 'data: [DONE]' : client === 'responses' ? 'event: response.completed' : 'event: message_stop';
  const ends = client === 'chat-completions' ? last?.data === '[DONE]' : last?.event === tail.slice('event: '.length);
  if (!ends) fail(`stream does not end with ${tail}`);
}

const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;

async function main(): Promise<void> {
  const started = Date.now();
  const loadBefore = os.loadavg()[0]!;
  mkdirSync(join(tmp, 'home'), { recursive: true });
  const fake = await children.start('fake upstream', process.execPath, ['--import', 'tsx', join(HERE, 'fake-upstream.ts')], {
    cwd: ROOT,
    env: cleanEnv({}),
    ready: /ready (http:\/\/\S+)\n/,
    timeoutMs: 20_000,
  });
  const fakeUrl = fake.match[1]!;
  const config = join(tmp, 'providers.json');
  writeFileSync(
    config,
    JSON.stringify({
      providers: [
        { name: 'chat-up', type: 'openai', baseUrl: `${fakeUrl}/v1`, models: ['chat-model'] },
        { name: 'msg-up', type: 'anthropic', baseUrl: fakeUrl, models: ['msg-model'] },
      ],
    }),
  );
  const dataDir = join(tmp, 'data');
  const env = cleanEnv({ GWCTL_ADMIN_PASSWORD: 'bench-admin-password-1' });
  const bin = join(ROOT, 'bin', 'gwctl.js');
  const gateway = await children.start(
    'gateway',
    process.execPath,
    [bin, 'serve', '--port', '0', '--image-port', '0', '--data-dir', dataDir, '--config', config, '--rate-limit', '0', '--log-level', 'warn'],
    { cwd: tmp, env, ready: /text API\s+(http:\/\/\S+)/, timeoutMs: 30_000, guard: true },
  );
  const gatewayUrl = gateway.match[1]!;
  const created = await children.run(process.execPath, [bin, 'admin', 'key', 'create', '--user', 'admin', '--json', '--data-dir', dataDir], tmp, env);
  if (created.code !== 0) throw new Error(`admin key create exited ${created.code}: ${created.stderr}`);
  const key = JSON.parse(created.stdout).key as string;

  const headers = { 'content-type': 'application/json', authorization: `Bearer ${key}` };
  const PATHS: Record<Client, string> = { 'chat-completions': '/v1/chat/completions', messages: '/v1/messages', responses: '/v1/responses' };
  const target = (client: Client, model: string, mode: Mode, kind: string): Target & { client: Client; provider: string } => ({
    name: `${client} ${mode} ${kind}`,
    url: `${gatewayUrl}${PATHS[client]}`,
    headers,
    body: body(client, model, mode),
    client,
    provider: model === 'chat-model' ? 'chat-up' : 'msg-up',
  });
  const pairs: Pair[] = [];
  for (const mode of ['JSON', 'stream'] as const) {
    const chatPass = target('chat-completions', 'chat-model', mode, 'pass-through');
    pairs.push({ client: 'chat-completions', label: 'chat-completions → messages upstream', mode, pass: chatPass, translated: target('chat-completions', 'msg-model', mode, 'translated') });
    pairs.push({ client: 'messages', label: 'messages → chat-completions upstream', mode, pass: target('messages', 'msg-model', mode, 'pass-through'), translated: target('messages', 'chat-model', mode, 'translated') });
    // A Responses client has no same-protocol upstream here: its cost is set against the chat-completions pass-through.
    pairs.push({ client: 'responses', label: 'Responses → chat-completions upstream', mode, pass: chatPass, translated: target('responses', 'chat-model', mode, 'to chat') });
    pairs.push({ client: 'responses', label: 'Responses → messages upstream', mode, pass: chatPass, translated: target('responses', 'msg-model', mode, 'to messages') });
  }
  // Throughput: warm-up, then rounds in rotating order so drift hits every target alike.
  const targets = [...new Map(pairs.flatMap((p) => [p.pass, p.translated]).map((t) => [t.name, t])).values()] as Array<ReturnType<typeof target>>;
  for (const t of targets) {
    const answer = await fetchOnce(t);
    verify(t, t.client, t.name.includes('stream') ? 'stream' : 'JSON', answer);
    const provider = answer.headers['x-gateway-provider'];
    if (provider !== t.provider) throw new Error(`${t.name}: served by ${String(provider)}, expected ${t.provider}`);
  }

  const rps = new Map<string, number[]>(targets.map((t) => [t.name, []]));
  const cpu = new Map<string, { seconds: number; requests: number }>(targets.map((t) => [t.name, { seconds: 0, requests: 0 }]));
  let failed = 0;
  for (const t of targets) failed += (await throughput(t, opts.connections, opts.warmup)).failed;
  for (let round = 0; round < opts.rounds; round += 1) {
    for (let i = 0; i < targets.length; i += 1) {
      const t = targets[(i + round) % targets.length]!;
      const before = cpuSeconds(gateway.pid);
      const result = await throughput(t, opts.connections, opts.duration);
      const spent = cpuSeconds(gateway.pid) - before;
      failed += result.failed;
      rps.get(t.name)!.push(result.rps);
      const c = cpu.get(t.name)!;
      c.seconds += spent;
      c.requests += result.ok;
    }
  }
  const seq = await sequential(targets, Math.min(100, opts.sequential), opts.sequential);
  const loadAfter = os.loadavg()[0]!;

  const cpuUs = (t: Target) => (cpu.get(t.name)!.seconds / cpu.get(t.name)!.requests) * 1e6;
  const lines: string[] = [];
  lines.push('| translated path | mode | req/s pass-through | req/s translated | translated / pass | gateway CPU µs/req pass | translated | CPU ratio | seq p50 ms pass | translated | added p50 ms | seq p99 ms pass | translated | overhead-ms header p50 pass | translated |');
  lines.push('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const p of pairs) {
    const [a, b] = [p.pass, p.translated];
    const [sa, sb] = [seq.get(a.name)!, seq.get(b.name)!];
    lines.push(
      `| ${p.label}${p.client === 'responses' ? ' (pass: chat-completions)' : ''} | ${p.mode} | ${fmt(median(rps.get(a.name)!))} | ${fmt(median(rps.get(b.name)!))} | ${ratio(median(rps.get(b.name)!), median(rps.get(a.name)!))} | ` +
        `${fmt(cpuUs(a))} | ${fmt(cpuUs(b))} | ${ratio(cpuUs(b), cpuUs(a))} | ${fmt(median(sa.ms), 2)} | ${fmt(median(sb.ms), 2)} | ${fmt(median(sb.ms) - median(sa.ms), 2)} | ` +
        `${fmt(percentile(sa.ms, 99), 2)} | ${fmt(percentile(sb.ms, 99), 2)} | ${fmt(median(sa.overheadMs), 2)} | ${fmt(median(sb.overheadMs), 2)} |`,
    );
  }
  const cpus = os.cpus();
  const out = [
    `Machine: ${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}, Node ${process.version};`,
    `1-minute load average ${loadBefore.toFixed(1)} before and ${loadAfter.toFixed(1)} after the run.`,
    `Date: ${new Date().toISOString().slice(0, 10)}. Command: \`${['node --import tsx scripts/bench/translation/run.ts', ...process.argv.slice(2)].join(' ')}\` (${opts.connections} connections, ` +
      `${opts.rounds} rounds × ${opts.duration} s per target after a ${opts.warmup} s warm-up, ${opts.sequential} sequential requests per target).`,
    '',
    ...lines,
    '',
    `Failed or non-2xx responses during load: ${failed}. Run took ${Math.round((Date.now() - started) / 1000)} s.`,
  ];
  process.stdout.write(`${out.join('\n')}\n`);
}

main()
  .then(cleanup, async (error) => {
    process.stderr.write(`translation benchmark failed: ${(error as Error).stack ?? error}\n`);
    await cleanup();
    process.exitCode = 1;
  })
  .finally(() => clearTimeout(hardLimit));
