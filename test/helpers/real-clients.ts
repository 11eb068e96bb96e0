// Real clients that no one here wrote, installed from the npm registry at pinned versions into a
// cache folder shared between runs (node_modules/.cache, never committed), and run offline-safe:
// temp HOME, non-essential traffic off, no HTTP proxy, base addresses on loopback only.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CACHE = join(ROOT, 'node_modules', '.cache', 'gwctl-real-clients');

export const CLAUDE_CODE = { name: '@anthropic-ai/claude-code', version: '2.1.197', bin: 'claude' } as const;
/** The Codex CLI: a Node launcher whose native binary comes in a platform optionalDependency (same registry). */
export const CODEX_CLI = { name: '@openai/codex', version: '0.169.0', bin: 'codex' } as const;
/** Gemini CLI: one bundled package, no dependencies beyond optional native helpers (node-pty, keytar). */
export const GEMINI_CLI = { name: '@google/gemini-cli', version: '0.61.0', bin: 'gemini' } as const;

/** OpenCode: a Node launcher whose native binary comes in a platform optionalDependency. */
export const OPENCODE = { name: 'opencode-ai', version: '1.18.33', bin: 'opencode' } as const;
/**
 * Qwen Code: one bundled package. It declares Node >= 22 in `engines` but runs on Node 20 (the
 * project's floor); npm only warns about the engine when installing it.
 */
export const QWEN_CODE = { name: '@qwen-code/qwen-code', version: '0.24.4', bin: 'qwen' } as const;

/** Variables that keep OpenCode on the configured provider alone (no update check, no models.dev catalogue, no sharing). */
export const OPENCODE_OFFLINE_ENV = { OPENCODE_DISABLE_AUTOUPDATE: '1', OPENCODE_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_SHARE: '1', OPENCODE_DISABLE_LSP_DOWNLOAD: '1' } as const;

/** ~/.qwen/settings.json keys that keep Qwen Code off the network beyond the API (no telemetry, statistics or update checks). */
export function qwenSettings(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { enableAutoUpdate: false, disableAutoUpdate: true, disableUpdateNag: true },
    security: { folderTrust: { enabled: false } },
    ...extra,
  };
}

export interface RealClient {
  name: string;
  version: string;
  bin: string;
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function run(file: string, args: string[], options: { env: NodeJS.ProcessEnv; cwd: string; timeoutMs: number; stdin?: string }): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env: options.env, cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (t: string) => (stdout += t));
    child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
    // A bound, not a timing assertion: a hung client must not hang the suite.
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.end(options.stdin ?? '');
  });
}

const installs = new Map<string, Promise<string>>();

/**
 * The path of the client's executable, installing it on first use. Concurrent test files may race:
 * each installs into its own temp folder and renames it into place; the loser uses the winner's.
 */
export function installRealClient(client: RealClient): Promise<string> {
  const id = `${client.name.replace('/', '+')}@${client.version}`;
  let pending = installs.get(id);
  if (!pending) {
    pending = (async () => {
      const dir = join(CACHE, id);
      const bin = join(dir, 'node_modules', '.bin', client.bin);
      if (existsSync(bin)) return bin;
      mkdirSync(CACHE, { recursive: true });
      const staging = mkdtempSync(join(CACHE, `.${id}-`));
      const env: NodeJS.ProcessEnv = { ...process.env, npm_config_loglevel: 'error', npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
      delete env.NODE_OPTIONS;
      const result = await run('npm', ['install', '--no-save', '--prefix', staging, `${client.name}@${client.version}`], { env, cwd: staging, timeoutMs: 600_000 });
      if (result.code !== 0 || !existsSync(join(staging, 'node_modules', '.bin', client.bin))) {
        rmSync(staging, { recursive: true, force: true });
        throw new Error(`npm install ${client.name}@${client.version} failed (${result.code}):\n${result.stderr.slice(-2000)}`);
      }
      try {
        renameSync(staging, dir);
      } catch {
        rmSync(staging, { recursive: true, force: true });
      }
      if (!existsSync(bin)) throw new Error(`${client.name} is not at ${bin} after installing`);
      return bin;
    })();
    installs.set(id, pending);
  }
  return pending;
}

/** Variables that must not leak from the developer's shell into a real client under test. */
function isolatedEnv(home: string, extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(ANTHROPIC_|CLAUDE_|CODEX_|MSGAPI_|GWCTL_|OPENAI_|GEMINI_|GOOGLE_|OPENCODE_|QWEN_|DASHSCOPE_|XDG_|NODE_|npm_)/i.test(name) || /_proxy$/i.test(name)) continue;
    env[name] = value;
  }
  Object.assign(env, {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    // Offline-safe: no telemetry, error reports, update checks or other calls beyond the API.
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    CI: '1',
  });
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

export interface ClaudeRun {
  /** Client variables (ANTHROPIC_BASE_URL, ANTHROPIC_AUTH_TOKEN, ANTHROPIC_MODEL, …). */
  env: Record<string, string | undefined>;
  prompt: string;
  home: string;
  cwd?: string;
  timeoutMs?: number;
}

/** `claude -p <prompt>` with a temp HOME; every address it may reach is in `env` (loopback). */
export async function runClaude(options: ClaudeRun): Promise<RunResult> {
  const bin = await installRealClient(CLAUDE_CODE);
  for (const [name, value] of Object.entries(options.env)) {
    if (/_BASE_URL$/.test(name) && value && !/^http:\/\/(127\.0\.0\.1|localhost|\[::1\])[:/]/.test(value)) {
      throw new Error(`${name}=${value} is not on loopback; real clients under test talk to loopback only`);
    }
  }
  return run(bin, ['-p', options.prompt], { env: isolatedEnv(options.home, options.env), cwd: options.cwd ?? options.home, timeoutMs: options.timeoutMs ?? 180_000 });
}

const LOOPBACK_URL = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])[:/]/;

/**
 * What keeps a Codex run on the configured provider alone (found by tracing its connections):
 * no update check, no analytics, no plugin marketplace sync (a git clone from GitHub), no apps,
 * remote plugins or tool suggestions (calls to the vendor's servers).
 */
const CODEX_OFFLINE_TOP = 'check_for_update_on_startup = false';
const CODEX_OFFLINE_TABLES = ['[analytics]', 'enabled = false', '', '[features]', 'plugins = false', 'apps = false', 'remote_plugin = false', 'plugin_sharing = false', 'tool_suggest = false'].join('\n');

export interface CodexRun {
  /**
   * The provider part of config.toml: top-level keys (model, model_provider, …) and the
   * [model_providers.<id>] table, as `gwctl config client --type responses` prints it.
   */
  config: string;
  /** Client variables, such as the one the provider's env_key names. */
  env: Record<string, string | undefined>;
  prompt: string;
  home: string;
  cwd?: string;
  timeoutMs?: number;
}

/** config.toml: the isolation keys around the given provider part (top-level keys stay above every table). */
export function codexConfigFile(config: string): string {
  const lines = config.split('\n');
  const firstTable = lines.findIndex((line) => /^\s*\[/.test(line));
  const top = firstTable === -1 ? lines : lines.slice(0, firstTable);
  const tables = firstTable === -1 ? [] : lines.slice(firstTable);
  return [CODEX_OFFLINE_TOP, ...top, ...tables, '', CODEX_OFFLINE_TABLES, ''].join('\n');
}

/**
 * `codex exec <prompt>` (one non-interactive prompt) with a temp HOME and CODEX_HOME holding the
 * config; every base_url in it must be on loopback. The final answer goes to stdout, the transcript
 * to stderr.
 */
export async function runCodex(options: CodexRun): Promise<RunResult> {
  const bin = await installRealClient(CODEX_CLI);
  for (const match of options.config.matchAll(/base_url\s*=\s*"([^"]*)"/g)) {
    if (!LOOPBACK_URL.test(match[1]!)) throw new Error(`base_url ${match[1]} is not on loopback; real clients under test talk to loopback only`);
  }
  const codexHome = join(options.home, '.codex');
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(join(codexHome, 'config.toml'), codexConfigFile(options.config));
  const cwd = options.cwd ?? join(options.home, 'work');
  mkdirSync(cwd, { recursive: true });
  const args = ['exec', '--skip-git-repo-check', '--ephemeral', '--color', 'never', options.prompt];
  return run(bin, args, { env: isolatedEnv(options.home, { CODEX_HOME: codexHome, ...options.env }), cwd, timeoutMs: options.timeoutMs ?? 180_000 });
}

/**
 * ~/.gemini/settings.json for a run (names read from 0.61.0's settings schema). `gemini-api-key`
 * is required: with GOOGLE_GEMINI_BASE_URL alone the CLI picks its `gateway` auth type and exits 41
 * before sending anything. The rest keeps it on the API alone: no auto-update or update check, no
 * usage statistics (also drops the x-gemini-api-privileged-user-id header), telemetry off, no IDE
 * companion, no folder-trust prompt.
 */
export function geminiSettings(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    ide: { enabled: false },
    ...extra,
  };
}

export interface GeminiRun {
  /** Client variables: GOOGLE_GEMINI_BASE_URL (loopback), GEMINI_API_KEY, GEMINI_MODEL, … */
  env: Record<string, string | undefined>;
  prompt: string;
  home: string;
  cwd?: string;
  timeoutMs?: number;
  /** Arguments before `-p <prompt>`, such as ['--output-format', 'json'] or ['-m', 'gemini-2.5-flash']. */
  args?: string[];
  /** Top-level keys merged over geminiSettings()' (whole sections replace). */
  settings?: Record<string, unknown>;
}

/**
 * `gemini -p <prompt>` (one non-interactive prompt) with a temp HOME holding ~/.gemini/settings.json.
 * GEMINI_CLI_NO_RELAUNCH keeps it one process (it otherwise re-spawns itself with a bigger heap, and
 * a timeout kill would miss the child). Headers, body and the model it asks for by default are
 * recorded in test/e2e/gemini-cli-fake.test.ts.
 */
export async function runGemini(options: GeminiRun): Promise<RunResult> {
  const bin = await installRealClient(GEMINI_CLI);
  for (const [name, value] of Object.entries(options.env)) {
    if (/_BASE_URL$/.test(name) && value && !LOOPBACK_URL.test(value)) {
      throw new Error(`${name}=${value} is not on loopback; real clients under test talk to loopback only`);
    }
  }
  const geminiHome = join(options.home, '.gemini');
  mkdirSync(geminiHome, { recursive: true });
  writeFileSync(join(geminiHome, 'settings.json'), `${JSON.stringify(geminiSettings(options.settings), null, 2)}\n`);
  const cwd = options.cwd ?? join(options.home, 'work');
  mkdirSync(cwd, { recursive: true });
  // It writes an error report (gemini-client-error-*.json) to the temp folder on every failed call.
  const tmp = join(options.home, 'tmp');
  mkdirSync(tmp, { recursive: true });
  const env = isolatedEnv(options.home, {
    TMPDIR: tmp,
    GEMINI_CLI_NO_RELAUNCH: 'true',
    GEMINI_TELEMETRY_ENABLED: 'false',
    NO_COLOR: '1',
    ...options.env,
  });
  return run(bin, [...(options.args ?? []), '-p', options.prompt], { env, cwd, timeoutMs: options.timeoutMs ?? 180_000 });
}

/** The environment a command such as `gwctl start` gets, isolated the same way as the client. */
export function realClientEnv(home: string, extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  return isolatedEnv(home, extra);
}

/** A temp HOME for one client run. */
export function tempHome(prefix = 'gwctl-real-client-'): { home: string; cleanup: () => void } {
  const home = mkdtempSync(join(process.env.TMPDIR ?? '/tmp', prefix));
  return { home, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}
