// Runs `bin/gwctl.js serve` as a child process, as an operator would: temp HOME, XDG dirs, data dir
// and providers file; URLs read from its stdout; keys and users made through the admin CLI in
// separate processes on the same database; stopped with a signal and its exit code awaited.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor, within } from './wait-for.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin', 'gwctl.js');

/** Variables of the test runner's own environment that must not reach a gateway or a client. */
function cleanEnv(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(base)) {
    if (/^(GWCTL_|OPENAI_|ANTHROPIC_|XDG_)/.test(name) || name === 'NODE_TEST_CONTEXT' || name === 'NODE_OPTIONS') continue;
    env[name] = value;
  }
  return env;
}

const live = new Set<ChildProcessWithoutNullStreams>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

export interface GatewayStartOptions {
  /** Providers file content; an object is written as JSON, a string as YAML. */
  providers?: unknown;
  rateLimit?: number;
  bodyLimit?: number;
  drainMs?: number;
  /** The gateway's log level (default warn); info writes a line per request, for tests of what logs hold. */
  logLevel?: string;
  /** More `gwctl serve` flags, as given. */
  extraArgs?: string[];
  /** Extra environment of the gateway (e.g. the upstream keys named by apiKeyEnv). */
  env?: Record<string, string>;
  /** A data directory of the caller's (shared by several gateways), kept at cleanup; default one of its own. */
  dataDir?: string;
  /**
   * GWCTL_ADMIN_PASSWORD for the first start (serve only, not the admin CLI runs). Without it serve
   * prints a random password to stderr, which is harmless here.
   */
  adminPassword?: string;
}

export interface CreatedKey {
  id: string;
  name: string | null;
  key: string;
  hint: string;
  createdAt: string;
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export class GatewayProcess {
  stdout = '';
  stderr = '';
  textUrl = '';
  imageUrl = '';
  exitInfo: Exit | undefined;
  private signalled = false;
  readonly exited: Promise<Exit>;
  private readonly child: ChildProcessWithoutNullStreams;

  private constructor(
    readonly root: string,
    readonly home: string,
    readonly dataDir: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly args: string[],
    private readonly serveEnv: Record<string, string>,
  ) {
    this.child = spawn(process.execPath, [BIN, 'serve', ...args], {
      cwd: home,
      env: { ...env, ...serveEnv },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    live.add(this.child);
    this.child.stdin.end();
    this.child.stdout.setEncoding('utf8').on('data', (text: string) => {
      this.stdout += text;
    });
    this.child.stderr.setEncoding('utf8').on('data', (text: string) => {
      this.stderr += text;
    });
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        live.delete(this.child);
        this.exitInfo = { code, signal };
        resolve(this.exitInfo);
      });
    });
  }

  static async start(options: GatewayStartOptions = {}): Promise<GatewayProcess> {
    const root = mkdtempSync(join(tmpdir(), 'gwctl-e2e-'));
    const home = join(root, 'home');
    const dataDir = options.dataDir ?? join(root, 'data');
    const configDir = join(root, 'config');
    for (const dir of [home, dataDir, configDir]) mkdirSync(dir, { recursive: true });
    const env: NodeJS.ProcessEnv = {
      ...cleanEnv(process.env),
      HOME: home,
      XDG_DATA_HOME: join(home, '.local', 'share'),
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_CACHE_HOME: join(home, '.cache'),
      XDG_STATE_HOME: join(home, '.local', 'state'),
      ...options.env,
    };
    const args = ['--host', '127.0.0.1', '--port', '0', '--image-port', '0', '--data-dir', dataDir, '--log-level', options.logLevel ?? 'warn'];
    if (options.providers !== undefined) {
      const isYaml = typeof options.providers === 'string';
      const file = join(configDir, isYaml ? 'providers.yaml' : 'providers.json');
      writeFileSync(file, isYaml ? (options.providers as string) : JSON.stringify(options.providers, null, 2));
      args.push('--config', file);
    }
    if (options.rateLimit !== undefined) args.push('--rate-limit', String(options.rateLimit));
    if (options.bodyLimit !== undefined) args.push('--body-limit', String(options.bodyLimit));
    if (options.drainMs !== undefined) args.push('--drain-ms', String(options.drainMs));
    if (options.extraArgs) args.push(...options.extraArgs);

    const serveEnv: Record<string, string> = options.adminPassword !== undefined ? { GWCTL_ADMIN_PASSWORD: options.adminPassword } : {};
    return GatewayProcess.ready(new GatewayProcess(root, home, dataDir, env, args, serveEnv));
  }

  /**
   * Starts `gwctl serve` again with the same flags, HOME and data dir: a running gateway is stopped
   * first (SIGTERM: it drains and flushes), as an operator restarts one; one that exited (a crash,
   * say) just starts again. The new process owns the temp dirs from then on: clean up that one.
   */
  async restart(): Promise<GatewayProcess> {
    if (!this.exitInfo) {
      const exit = await this.stop();
      if (exit.code !== 0) throw new Error(`gwctl serve exited ${JSON.stringify(exit)} when stopped for a restart\nstderr:\n${this.stderr}`);
    }
    return GatewayProcess.ready(new GatewayProcess(this.root, this.home, this.dataDir, this.env, this.args, this.serveEnv));
  }

  /** Waits for a started gateway to print its URLs (or fail), and reads them. */
  private static async ready(gateway: GatewayProcess): Promise<GatewayProcess> {
    try {
      await Promise.race([
        waitFor(() => gateway.exitInfo !== undefined || /image API\s+http/.test(gateway.stdout), { timeoutMs: 30_000, what: 'gwctl serve to print its URLs' }),
        gateway.exited,
      ]);
      if (gateway.exitInfo) throw new Error(`gwctl serve exited early with ${JSON.stringify(gateway.exitInfo)}`);
    } catch (error) {
      await gateway.cleanup();
      throw new Error(`${(error as Error).message}\nstdout:\n${gateway.stdout}\nstderr:\n${gateway.stderr}`);
    }
    gateway.textUrl = /text API\s+(http:\/\/\S+)/.exec(gateway.stdout)![1]!;
    gateway.imageUrl = /image API\s+(http:\/\/\S+)/.exec(gateway.stdout)![1]!;
    return gateway;
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Runs `gwctl admin <args> --data-dir <this gateway's>` in its own process. */
  admin(args: string[], options: { stdin?: string } = {}): Promise<CliResult> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, 'admin', ...args, '--data-dir', this.dataDir], { cwd: this.home, env: this.env });
      live.add(child);
      child.once('exit', () => live.delete(child));
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (t: string) => (stdout += t));
      child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
      child.once('error', reject);
      child.once('close', (code) => resolve({ code, stdout, stderr }));
      child.stdin.end(options.stdin ?? '');
    });
  }

  /** Runs an admin command with --json, requires exit code 0 and returns the parsed document. */
  async adminJson<T = any>(args: string[], options: { stdin?: string } = {}): Promise<T> {
    const result = await this.admin([...args, '--json'], options);
    if (result.code !== 0) throw new Error(`gwctl admin ${args.join(' ')} exited ${result.code}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`);
    return JSON.parse(result.stdout) as T;
  }

  createKey(user = 'admin', name?: string): Promise<CreatedKey> {
    return this.adminJson<CreatedKey>(['key', 'create', '--user', user, ...(name ? ['--name', name] : [])]);
  }

  async addUser(name: string, password = 'user-password-123'): Promise<void> {
    await this.adminJson(['user', 'add', name, '--password-stdin'], { stdin: `${password}\n` });
  }

  /** Sends a signal without waiting (e.g. SIGTERM while streams are in flight). */
  signal(signal: NodeJS.Signals = 'SIGTERM'): void {
    this.signalled = true;
    this.child.kill(signal);
  }

  /**
   * Sends the signal unless one was already sent (a second SIGTERM/SIGINT means "exit now" to
   * gwctl), then waits for the process to exit (bounded).
   */
  async stop(signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 30_000): Promise<Exit> {
    if (!this.exitInfo && !this.signalled) this.signal(signal);
    try {
      return await within(this.exited, timeoutMs, `gwctl serve to exit after ${signal}`);
    } catch (error) {
      throw new Error(`${(error as Error).message}\nstderr:\n${this.stderr}`);
    }
  }

  /** Kills the process if it still runs and removes every temp dir. Safe to call twice. */
  async cleanup(): Promise<void> {
    if (!this.exitInfo) {
      this.child.kill('SIGKILL');
      await this.exited;
    }
    rmSync(this.root, { recursive: true, force: true });
  }
}

/**
 * Points this test process's HOME and XDG dirs at a temp dir and drops OPENAI_* / ANTHROPIC_*
 * variables, so the SDK clients read no real credentials or config. Returns the undo.
 */
export function isolateClientEnvironment(): () => void {
  const saved = { ...process.env };
  const home = mkdtempSync(join(tmpdir(), 'gwctl-e2e-client-'));
  for (const name of Object.keys(process.env)) if (/^(OPENAI_|ANTHROPIC_)/.test(name)) delete process.env[name];
  process.env.HOME = home;
  process.env.XDG_CONFIG_HOME = join(home, '.config');
  process.env.XDG_DATA_HOME = join(home, '.local', 'share');
  return () => {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
    rmSync(home, { recursive: true, force: true });
  };
}

// --- Client-side helpers for raw HTTP checks (bytes, headers) next to the SDK clients. ---

export interface StreamRead {
  status: number;
  headers: Headers;
  /** The body as it arrived, chunk by chunk. */
  chunks: Buffer[];
  bytes: Buffer;
  text: string;
}

/** Reads a fetch response to the end, keeping the chunk boundaries. */
export async function readResponse(response: Response): Promise<StreamRead> {
  const chunks: Buffer[] = [];
  if (response.body) for await (const chunk of response.body) chunks.push(Buffer.from(chunk));
  const bytes = Buffer.concat(chunks);
  return { status: response.status, headers: response.headers, chunks, bytes, text: bytes.toString('utf8') };
}

export { parseSse, type ParsedSse } from './sse-text.ts';

export interface RawResponse {
  status: number;
  headers: import('node:http').IncomingHttpHeaders;
  body: string;
  json<T = any>(): T;
}

/**
 * One request through node:http with header values sent as given, byte for byte (latin1), so a
 * test can send what fetch refuses: UTF-8 typographic quotes inside a header, odd spacing.
 */
export async function rawRequest(url: string, options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<RawResponse> {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json: () => JSON.parse(body) });
      });
    });
    req.on('error', reject);
    // A string body would be sent in one write with the headers, all encoded as UTF-8, which
    // re-encodes latin1 header bytes; a Buffer keeps the headers byte for byte.
    req.end(typeof options.body === 'string' ? Buffer.from(options.body, 'utf8') : options.body);
  });
}

/** UTF-8 text as the latin1 "string" node:http needs to put those exact bytes in a header. */
export function utf8HeaderValue(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1');
}
