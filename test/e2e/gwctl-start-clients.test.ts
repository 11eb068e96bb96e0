// `gwctl start --profile P -- <one-shot>` with each real coding client (pinned, from the npm
// registry) as a new user runs it: a fresh HOME holding only the client's own settings, the
// gateway address stored with `gwctl config set baseUrl`, the key in MSGAPI_AUTH_TOKEN and a vendor
// key in the shell that must not reach the client. In a git repository and in a plain folder; a
// tool round trip (a loopback shim makes the request force a tool, so the demo calls it and the
// client sends the result back); the user's configuration files byte-identical afterwards and the
// launch's temporary configuration gone. Loopback only; each client's telemetry and update checks off.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { GWCTL_BIN } from '../cli/gwctl-harness.ts';
import { ForceToolShim } from '../helpers/force-tool-shim.ts';
import { GatewayProcess } from '../helpers/gateway-process.ts';
import {
  CLAUDE_CODE,
  CODEX_CLI,
  codexConfigFile,
  GEMINI_CLI,
  geminiSettings,
  installRealClient,
  OPENCODE,
  OPENCODE_OFFLINE_ENV,
  QWEN_CODE,
  qwenSettings,
  realClientEnv,
  runClaude,
  tempHome,
  type RealClient,
} from '../helpers/real-clients.ts';

const RUN_LIMIT_MS = 300_000;
const VENDOR_KEY = 'sk-vendor-key-that-must-not-reach-the-client';

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
  err: string;
}

function explain(run: Run): string {
  return `exit ${run.code} signal ${run.signal}\nstdout:\n${run.out.slice(-3000)}\nstderr:\n${run.err.slice(-5000)}`;
}

function gwctl(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [GWCTL_BIN, ...args], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (t: string) => (out += t));
    child.stderr.setEncoding('utf8').on('data', (t: string) => (err += t));
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_LIMIT_MS);
    child.once('error', (error) => (clearTimeout(timer), reject(error)));
    child.once('close', (code, signal) => (clearTimeout(timer), resolve({ code, signal, out, err })));
  });
}

interface ClientCase {
  profile: 'claude' | 'codex' | 'gemini' | 'opencode' | 'qwen';
  client: RealClient;
  oneShot: (prompt: string) => string[];
  /** The user's own configuration files (relative to HOME), as a user who turned telemetry off keeps them. */
  userFiles: Record<string, string>;
  env?: Record<string, string>;
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

const CASES: ClientCase[] = [
  {
    profile: 'claude',
    client: CLAUDE_CODE,
    oneShot: (p) => ['-p', p],
    userFiles: { '.claude/settings.json': json({ permissions: { allow: ['Bash(ls:*)'] }, env: { DISABLE_TELEMETRY: '1' } }), '.claude.json': json({ hasCompletedOnboarding: true, mcpServers: {} }) },
  },
  { profile: 'codex', client: CODEX_CLI, oneShot: (p) => ['exec', '--ephemeral', '--color', 'never', p], userFiles: { '.codex/config.toml': codexConfigFile('approval_policy = "never"') } },
  {
    profile: 'gemini',
    client: GEMINI_CLI,
    oneShot: (p) => ['-p', p],
    // No auth type: gwctl's launch adds the one the gateway needs.
    userFiles: { '.gemini/settings.json': json({ ...geminiSettings(), security: { folderTrust: { enabled: false } } }) },
    env: { GEMINI_CLI_NO_RELAUNCH: 'true', GEMINI_TELEMETRY_ENABLED: 'false', NO_COLOR: '1' },
  },
  {
    profile: 'opencode',
    client: OPENCODE,
    oneShot: (p) => ['run', p],
    userFiles: { '.config/opencode/opencode.json': json({ $schema: 'https://opencode.ai/config.json', autoupdate: false, share: 'disabled', permission: { bash: 'allow' } }) },
    env: { ...OPENCODE_OFFLINE_ENV },
  },
  { profile: 'qwen', client: QWEN_CODE, oneShot: (p) => ['-p', p, '--approval-mode', 'yolo'], userFiles: { '.qwen/settings.json': json(qwenSettings()) } },
];

describe('gwctl start with every real coding client', { timeout: 3_000_000 }, () => {
  let gateway: GatewayProcess;
  let key: string;
  const bins = new Map<string, string>();
  const cleanups: Array<() => void | Promise<void>> = [];

  before(async () => {
    for (const c of CASES) bins.set(c.profile, dirname(await installRealClient(c.client)));
    gateway = await GatewayProcess.start();
    key = (await gateway.createKey('admin', 'start-clients')).key;
  });
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    await gateway?.cleanup();
  });

  /** A new user of this client: a fresh HOME with the client's own settings and a gwctl that knows only baseUrl. */
  async function newUser(c: ClientCase, baseUrl: string): Promise<{ home: string; env: NodeJS.ProcessEnv; snapshot: () => Record<string, string> }> {
    const made = tempHome(`gwctl-start-${c.profile}-`);
    cleanups.push(made.cleanup);
    const home = made.home;
    for (const [path, text] of Object.entries(c.userFiles)) {
      mkdirSync(dirname(join(home, path)), { recursive: true });
      writeFileSync(join(home, path), text);
    }
    mkdirSync(join(home, 'tmp'), { recursive: true });
    const env = realClientEnv(home, { PATH: `${bins.get(c.profile)}:${process.env.PATH ?? ''}`, TMPDIR: join(home, 'tmp'), MSGAPI_AUTH_TOKEN: key, OPENAI_API_KEY: VENDOR_KEY, ...c.env });
    const set = await gwctl(['config', 'set', 'baseUrl', baseUrl], env, home);
    assert.equal(set.code, 0, explain(set));
    const snapshot = () => Object.fromEntries(Object.keys(c.userFiles).map((path) => [path, readFileSync(join(home, path), 'latin1')]));
    return { home, env, snapshot };
  }

  function folders(home: string): { repo: string; plain: string } {
    const repo = join(home, 'repo');
    const plain = join(home, 'plain');
    for (const dir of [repo, plain]) mkdirSync(dir, { recursive: true });
    writeFileSync(join(repo, 'README.md'), 'a repository\n');
    assert.equal(spawnSync('git', ['init', '-q'], { cwd: repo }).status, 0);
    return { repo, plain };
  }

  function leftovers(home: string, profile: string): string[] {
    return readdirSync(join(home, 'tmp')).filter((name) => name.startsWith(`gwctl-${profile}-`));
  }

  /** The one-shot a user types after pasting `gwctl config client --type P`, as its "try it" line says. */
  const TRY: Record<ClientCase['profile'], string> = {
    claude: 'claude -p "say pong"',
    codex: 'codex exec --skip-git-repo-check --ephemeral "say pong"',
    gemini: 'GEMINI_CLI_TRUST_WORKSPACE=true gemini -p "say pong"',
    opencode: 'opencode run "say pong"',
    qwen: 'qwen -p "say pong"',
  };

  for (const c of CASES) {
    test(`${c.profile}: gwctl config client --type ${c.profile} pasted as printed into a shell makes the client answer`, async () => {
      const user = await newUser(c, gateway.textUrl);
      const printed = await gwctl(['config', 'client', '--type', c.profile], user.env, user.home);
      assert.equal(printed.code, 0, explain(printed));
      assert.match(printed.out, /model demo-chat/);
      assert.ok(!printed.out.includes(key), 'the key is referred to, never printed');
      const plain = join(user.home, 'plain');
      mkdirSync(plain, { recursive: true });
      writeFileSync(join(user.home, 'paste.sh'), printed.out);
      const run = await new Promise<Run>((resolve) => {
        const child = spawn('bash', ['-c', `source "$HOME/paste.sh" && ${TRY[c.profile]}`], { env: user.env, cwd: plain, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        let err = '';
        child.stdout.setEncoding('utf8').on('data', (t: string) => (out += t));
        child.stderr.setEncoding('utf8').on('data', (t: string) => (err += t));
        const timer = setTimeout(() => child.kill('SIGKILL'), RUN_LIMIT_MS);
        child.once('close', (code, signal) => (clearTimeout(timer), resolve({ code, signal, out, err })));
      });
      assert.equal(run.code, 0, `${printed.out}\n${explain(run)}`);
      assert.match(run.out, /Demo reply to "+say pong"+\./, explain(run));
    });

    test(`${c.profile}: one-shot prompt in a git repository and in a plain folder prints the demo reply; user files untouched`, async () => {
      const user = await newUser(c, gateway.textUrl);
      const before = user.snapshot();
      const { repo, plain } = folders(user.home);
      for (const cwd of [repo, plain]) {
        const run = await gwctl(['start', '--profile', c.profile, '--', ...c.oneShot('say pong')], user.env, cwd);
        assert.equal(run.code, 0, explain(run));
        assert.match(run.out, /Demo reply to "+say pong"+\./, explain(run));
        assert.match(run.err, /stripped\s+OPENAI_API_KEY/, explain(run));
        assert.ok(!run.out.includes(VENDOR_KEY) && !run.err.includes(key), 'no key in the output');
        assert.deepEqual(leftovers(user.home, c.profile), [], 'the launch configuration is removed');
      }
      assert.deepEqual(user.snapshot(), before, "the client's user configuration files are byte-identical");
    });

    test(`${c.profile}: a tool round trip (the request forced to call a tool; the client runs it and sends the result back)`, async () => {
      const shim = await ForceToolShim.start(gateway.textUrl);
      cleanups.push(() => shim.close());
      const user = await newUser(c, shim.url);
      const before = user.snapshot();
      const { repo } = folders(user.home);
      const run = await gwctl(['start', '--profile', c.profile, '--no-diagnose', '--', ...c.oneShot('list the files here')], user.env, repo);
      const seen = JSON.stringify(shim.records);
      assert.ok(shim.records.some((r) => r.forced), `a request offered tools\n${seen}\n${explain(run)}`);
      assert.ok(shim.records.some((r) => r.toolResult), `the client sent a tool result back\n${seen}\n${explain(run)}`);
      assert.equal(run.code, 0, explain(run));
      assert.deepEqual(user.snapshot(), before);
      assert.deepEqual(leftovers(user.home, c.profile), []);
    });
  }

  test('Claude Code asking for its own default model (no model variable) is served through the embedded claude-* alias', async () => {
    const made = tempHome('gwctl-claude-alias-');
    cleanups.push(made.cleanup);
    const result = await runClaude({ home: made.home, prompt: 'say pong', env: { ANTHROPIC_BASE_URL: gateway.textUrl, ANTHROPIC_AUTH_TOKEN: key } });
    assert.equal(result.code, 0, `${result.stdout}\n${result.stderr}`);
    assert.match(result.stdout, /Demo reply to "say pong"\./);
  });
});
