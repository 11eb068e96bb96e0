// Shared by the TUI tests: a temp HOME machine with a fake client on PATH, a fake HTTP function for
// the gateway and the proxy's /health, fake proxy operations, and the app rendered with
// ink-testing-library at 80x24 (or at any size through our own streams), with keys and bounded
// waits on frames.
import { EventEmitter } from 'node:events';
import { render as inkRender } from 'ink';
import { cleanup as cleanupInk, render } from 'ink-testing-library';
import { after } from 'node:test';
import type { HttpGet, HttpOutcome, HttpRequest } from '../../core/client/http-get.ts';
import type { HttpPost, PostOutcome, PostRequest } from '../../core/proxy/http-post.ts';
import type { ProxyStatusReport } from '../../core/proxy/proxy-status.ts';
import { App } from '../../tui/app.tsx';
import type { TuiDeps } from '../../tui/hooks/engine.ts';
import type { OperationResult, PlannedChange, ProxyAction, ProxyActionOptions, ProxyOperationsPort } from '../../tui/hooks/proxy-port.ts';
import type { AppExit, ResumeState } from '../../tui/hooks/session.ts';
import type { CheckReport } from '../../core/proxy/proxy-causes.ts';
import { installFakeClient } from '../helpers/fake-client.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { makeSandbox, type Sandbox } from '../cli/gwctl-harness.ts';

/** A key of the shape the service issues; tests check it never appears in a frame. */
export const TEST_KEY = `sk-${'k'.repeat(40)}Ab12`;
export const GATEWAY = 'http://gw.test:8080';
export const PROXY = 'http://127.0.0.1:9801';

export const KEY = {
  up: '\u001b[A',
  down: '\u001b[B',
  enter: '\r',
  escape: '\u001b',
  ctrlC: '\u0003',
  backspace: '\u007f',
  ctrlU: '\u0015',
} as const;

export const reply = {
  json(status: number, body: unknown, headers: Record<string, string> = {}): HttpOutcome {
    return { kind: 'response', status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) };
  },
  healthOk(): HttpOutcome {
    return reply.json(200, { status: 'ok' });
  },
  healthDegraded(): HttpOutcome {
    return reply.json(503, { status: 'degraded', failed_extensions: [{ file: 'sort-stabilization.mjs' }], hint: 'restart the proxy' });
  },
  refused(): HttpOutcome {
    return { kind: 'error', failure: { kind: 'refused', code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' } };
  },
  models(ids: string[] = ['demo-chat']): HttpOutcome {
    return reply.json(200, { object: 'list', data: ids.map((id) => ({ id, object: 'model' })) });
  },
  unauthorized(): HttpOutcome {
    return reply.json(401, { error: { message: 'Invalid API key', type: 'invalid_request_error', code: 'invalid_api_key' } });
  },
};

export type Route = HttpOutcome | ((request: HttpRequest) => HttpOutcome | Promise<HttpOutcome>);

/** GET …/health and GET …/models answered from the routes; every URL asked is recorded. */
export function fakeHttp(routes: { health?: Route; models?: Route } = {}): HttpGet & { calls: HttpRequest[] } {
  const calls: HttpRequest[] = [];
  const answer = async (route: Route | undefined, request: HttpRequest, fallback: HttpOutcome) => (route === undefined ? fallback : typeof route === 'function' ? route(request) : route);
  const http = (async (request: HttpRequest) => {
    calls.push(request);
    if (request.url.endsWith('/health')) return answer(routes.health, request, reply.healthOk());
    if (request.url.endsWith('/models')) return answer(routes.models, request, reply.models());
    return reply.json(404, { error: { message: 'not found' } });
  }) as HttpGet & { calls: HttpRequest[] };
  http.calls = calls;
  return http;
}

/** POST /v1/messages (the diagnosis' short real request) answered from the route; every request recorded. */
export function fakePost(answer?: PostOutcome | ((request: PostRequest) => PostOutcome)): HttpPost & { calls: PostRequest[] } {
  const calls: PostRequest[] = [];
  const normal: PostOutcome = { kind: 'response', status: 200, headers: { 'x-request-id': 'req_1', 'request-id': 'req_1', 'x-gateway-provider': 'demo' }, body: JSON.stringify({ type: 'message', content: [{ type: 'text', text: 'Demo' }] }), eventStream: false };
  const post = (async (request: PostRequest) => {
    calls.push(request);
    return answer === undefined ? normal : typeof answer === 'function' ? answer(request) : answer;
  }) as HttpPost & { calls: PostRequest[] };
  post.calls = calls;
  return post;
}

/** A promise the test settles by hand (an operation that runs until the test lets it finish). */
export function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

export function statusReport(over: Partial<ProxyStatusReport> = {}): ProxyStatusReport {
  const active = { name: 'cache-fix-proxy', version: '4.2.1', packageDir: '/opt/npm/lib/node_modules/cache-fix-proxy', binPath: '/opt/npm/bin/cache-fix-proxy' };
  return {
    schemaVersion: 1,
    ok: true,
    pinnedVersion: '4.2.1',
    proxyUrl: PROXY,
    installation: { installed: true, prefix: '/opt/npm', global: active, onPath: null, active, pinned: true, observed: 'cache-fix-proxy@4.2.1 in /opt/npm/lib/node_modules/cache-fix-proxy' },
    definition: { kind: 'systemd', file: '/home/u/.config/systemd/user/cache-fix-proxy.service', exists: true, upstream: GATEWAY, port: 9801, debug: false, bodyAltering: [], runs: { name: 'cache-fix-proxy', version: '4.2.1', packageDir: active.packageDir } },
    supervisor: { kind: 'systemd', available: true, service: { enabled: 'enabled', active: 'active' }, timer: { enabled: 'enabled', active: 'active' }, observed: 'systemd user units: cache-fix-proxy enabled/active' },
    health: { state: 'ok', healthUrl: `${PROXY}/health`, status: 200, failedExtensions: [], observed: `GET ${PROXY}/health → 200 {"status":"ok"}` },
    port: { port: 9801, method: 'procfs', processes: [], contested: false, observed: 'one process listens on 9801' },
    upstream: { auth: 'service', check: { status: 'pass', cause: 'OK', observed: `CACHE_FIX_PROXY_UPSTREAM=${GATEWAY} matches`, remedy: null, commands: [] } },
    checks: [],
    ...over,
  };
}

export function plannedChange(action: ProxyAction, over: Partial<PlannedChange> = {}): PlannedChange {
  return {
    schemaVersion: 1,
    action,
    refused: null,
    commands: ['npm install -g --no-audit --no-fund cache-fix-proxy@4.2.1'],
    steps: [{ kind: 'run', shown: 'npm install -g --no-audit --no-fund cache-fix-proxy@4.2.1', purpose: 'install the pinned version' }],
    backups: [],
    filesWritten: [],
    filesRemoved: [],
    environment: {},
    bodyAltering: null,
    warnings: [],
    notes: [],
    ...over,
  };
}

export function operationResult(action: ProxyAction, over: Partial<OperationResult> = {}): OperationResult {
  return { ok: true, action, steps: [{ command: 'npm install -g cache-fix-proxy@4.2.1', exitCode: 0, output: '' }], summary: 'installed cache-fix-proxy@4.2.1', exitCode: 0, dryRun: false, plan: plannedChange(action), backups: [], regression: [], notes: [], ...over };
}

export interface FakeProxy extends ProxyOperationsPort {
  calls: Array<{ op: string; action?: ProxyAction; options?: ProxyActionOptions }>;
}

/** Proxy operations answering from the given functions (defaults: a healthy, pinned install). */
export function fakeProxy(impl: Partial<ProxyOperationsPort> = {}): FakeProxy {
  const calls: FakeProxy['calls'] = [];
  return {
    calls,
    status: async () => {
      calls.push({ op: 'status' });
      return impl.status ? impl.status() : statusReport();
    },
    plan: async (action, options) => {
      calls.push({ op: 'plan', action, options });
      return impl.plan ? impl.plan(action, options) : plannedChange(action);
    },
    run: async (action, options) => {
      calls.push({ op: 'run', action, options });
      return impl.run ? impl.run(action, options) : operationResult(action);
    },
    acceptance: async (options) => {
      calls.push({ op: 'acceptance' });
      if (impl.acceptance) return impl.acceptance(options);
      return { schemaVersion: 1, ok: true, checks: [], layers: [] } satisfies CheckReport;
    },
  };
}

export interface Machine {
  sandbox: Sandbox;
  deps: TuiDeps;
  http: ReturnType<typeof fakeHttp>;
  post: ReturnType<typeof fakePost>;
}

/** A user's machine: temp HOME, gwctl pointed at the fake gateway, the key exported, a client on PATH. */
export function machine(options: { env?: NodeJS.ProcessEnv; http?: ReturnType<typeof fakeHttp>; post?: ReturnType<typeof fakePost>; proxy?: ProxyOperationsPort | null } = {}): Machine {
  const sandbox = makeSandbox({ GWCTL_BASE_URL: GATEWAY, GWCTL_PROXY_URL: PROXY, ANTHROPIC_AUTH_TOKEN: TEST_KEY });
  sandbox.env.GWCTL_SETTINGS_FILES = `${sandbox.home}/.claude/settings.json:${sandbox.project}/.claude/settings.json`;
  Object.assign(sandbox.env, options.env);
  for (const [k, v] of Object.entries(sandbox.env)) if (v === undefined) delete sandbox.env[k];
  installFakeClient(sandbox.bin, 'claude');
  const http = options.http ?? fakeHttp();
  const post = options.post ?? fakePost();
  const deps: TuiDeps = {
    env: sandbox.env,
    cwd: sandbox.project,
    flags: {},
    http,
    post,
    now: () => new Date('2026-11-21T10:00:00Z'),
    proxy: options.proxy === undefined ? fakeProxy() : options.proxy,
    procVersion: () => 'Linux version 6.1 (debian)',
    requestTimeoutMs: 2000,
    probeTimeoutMs: 500,
  };
  return { sandbox, deps, http, post };
}

/** A frame as one line of words: borders dropped and wrapped lines joined, for matching text. */
export function flat(frame: string): string {
  return frame.replace(/[│╭╮╰╯─┌┐└┘]/g, ' ').replace(/\s+/g, ' ');
}

export interface Rendered {
  frame(): string;
  frames: string[];
  exits: AppExit[];
  /** Writes keys one at a time, yielding to the event loop after each so the app has handled it. */
  press(...keys: string[]): Promise<void>;
  /** Waits (bounded) until the frame contains all the texts (wrapped or not) / matches; returns that frame. */
  waitFor(...wanted: Array<string | RegExp>): Promise<string>;
  /** Waits (bounded) until the frame satisfies the predicate; returns that frame. */
  waitUntil(holds: (frame: string) => boolean, what: string): Promise<string>;
  unmount(): void;
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

function wrap(lastFrame: () => string | undefined, frames: string[], write: (data: string) => void, unmount: () => void, exits: AppExit[]): Rendered {
  const frame = () => lastFrame() ?? '';
  return {
    frame,
    frames,
    exits,
    async press(...keys) {
      for (const k of keys) {
        write(k);
        await tick();
        await tick();
      }
    },
    async waitFor(...wanted) {
      // Texts may be wrapped over lines or inside a box: they also count when found in the flat frame.
      const holds = () => wanted.every((w) => (typeof w === 'string' ? frame().includes(w) || flat(frame()).includes(w) : w.test(frame())));
      try {
        await waitFor(holds, { timeoutMs: 5000, intervalMs: 10, what: wanted.map(String).join(' & ') });
      } catch (error) {
        throw new Error(`${(error as Error).message}\n--- last frame ---\n${frame()}`);
      }
      return frame();
    },
    async waitUntil(holds, what) {
      try {
        await waitFor(() => holds(frame()), { timeoutMs: 5000, intervalMs: 10, what });
      } catch (error) {
        throw new Error(`${(error as Error).message}\n--- last frame ---\n${frame()}`);
      }
      return frame();
    },
    unmount,
  };
}

/** The app through ink-testing-library, laid out at 80x24 unless another size is given. */
export function renderApp(deps: TuiDeps, options: { resume?: ResumeState; size?: { columns: number; rows: number } } = {}): Rendered {
  const exits: AppExit[] = [];
  const r = render(<App deps={deps} resume={options.resume} size={options.size ?? { columns: 80, rows: 24 }} onExit={(e) => exits.push(e)} />);
  return wrap(r.lastFrame, r.frames, r.stdin.write, r.unmount, exits);
}

class SizedStdout extends EventEmitter {
  readonly isTTY = false;
  frames: string[] = [];
  constructor(
    public columns: number,
    public rows: number,
  ) {
    super();
  }
  write = (frame: string) => {
    this.frames.push(frame);
    return true;
  };
}

class TestStdin extends EventEmitter {
  readonly isTTY = true;
  private data: string | null = null;
  write = (data: string) => {
    this.data = data;
    this.emit('readable');
  };
  read = () => {
    const d = this.data;
    this.data = null;
    return d;
  };
  setEncoding() {}
  setRawMode() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
}

/** The app on a terminal of the given size (ink lays out to the stream's own width); resize() resizes it. */
export function renderSized(deps: TuiDeps, columns: number, rows: number): Rendered & { resize(columns: number, rows: number): void } {
  const stdout = new SizedStdout(columns, rows);
  const stdin = new TestStdin();
  const exits: AppExit[] = [];
  const instance = inkRender(<App deps={deps} onExit={(e) => exits.push(e)} />, {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: new SizedStdout(columns, rows) as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  const rendered = wrap(() => stdout.frames.at(-1), stdout.frames, stdin.write, instance.unmount, exits);
  return {
    ...rendered,
    resize(c: number, r: number) {
      stdout.columns = c;
      stdout.rows = r;
      stdout.emit('resize');
    },
  };
}

/**
 * Per test file: a `setup` that builds machines and removes their sandboxes (and Ink's renders)
 * when the file's tests are done.
 */
export function machinesForThisFile(): (...args: Parameters<typeof machine>) => Machine {
  const machines: Machine[] = [];
  after(() => {
    cleanupInk();
    for (const m of machines) m.sandbox.cleanup();
  });
  return (...args) => {
    const m = machine(...args);
    machines.push(m);
    return m;
  };
}
