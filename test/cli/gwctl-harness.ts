// Shared by the gwctl CLI and end-to-end tests: a temp HOME/XDG sandbox, gwctl run in-process
// (fast) or as a real process (for launching a client and signals), and output normalisation for
// golden files.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../cli/run-cli.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const GWCTL_BIN = join(ROOT, 'bin', 'gwctl.js');

export interface Sandbox {
  root: string;
  home: string;
  /** A project directory to run in (for .claude/settings*.json). */
  project: string;
  /** Put first on PATH; fake clients go here. */
  bin: string;
  env: NodeJS.ProcessEnv;
  cleanup(): void;
}

/** The runner's environment without anything that could steer gwctl or a client. */
function baseEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(GWCTL_|MSGAPI_|ANTHROPIC_|OPENAI_|XDG_|CACHE_FIX_|CLAUDE_|WSL_|HTTPS?_PROXY|NO_PROXY)/i.test(name)) continue;
    if (name === 'NODE_TEST_CONTEXT' || name === 'NODE_OPTIONS' || name === 'ZDOTDIR') continue;
    env[name] = value;
  }
  return env;
}

export function makeSandbox(extra: NodeJS.ProcessEnv = {}): Sandbox {
  const root = mkdtempSync(join(tmpdir(), 'gwctl-t-'));
  const home = join(root, 'home');
  const project = join(root, 'project');
  const bin = join(root, 'bin');
  for (const dir of [home, project, bin]) mkdirSync(dir, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    ...baseEnv(),
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    PATH: `${bin}:${process.env.PATH ?? ''}`,
    ...extra,
  };
  return { root, home, project, bin, env, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

export interface Run {
  code: number;
  out: string;
  err: string;
}

/** Runs gwctl in this process with the given environment (cwd stays the test's). */
export async function gwctl(args: string[], env: NodeJS.ProcessEnv, stdin = ''): Promise<Run> {
  let out = '';
  let err = '';
  const code = await runCli(args, {
    stdout: (t) => void (out += t),
    stderr: (t) => void (err += t),
    env,
    readStdin: async () => stdin,
  });
  return { code, out, err };
}

/** Runs gwctl --json in-process and parses stdout. */
export async function gwctlJson<T = any>(args: string[], env: NodeJS.ProcessEnv): Promise<Run & { json: T }> {
  const run = await gwctl([...args, '--json'], env);
  let json: T;
  try {
    json = JSON.parse(run.out) as T;
  } catch {
    throw new Error(`gwctl ${args.join(' ')} --json did not print JSON (exit ${run.code})\nstdout: ${run.out}\nstderr: ${run.err}`);
  }
  return { ...run, json };
}

export interface ProcessRun {
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }>;
}

/** Runs `node bin/gwctl.js …` as its own process, as a user would. */
export function gwctlProcess(args: string[], options: { env: NodeJS.ProcessEnv; cwd: string }): ProcessRun {
  const child = spawn(process.execPath, [GWCTL_BIN, ...args], { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (t: string) => (out += t));
  child.stderr!.setEncoding('utf8').on('data', (t: string) => (err += t));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, out, err }));
  });
  return { child, done };
}

/** Replaces what changes from run to run: temp paths, ports, timestamps, masked key tails. */
export function normalise(text: string, sandbox?: Sandbox): string {
  let out = text;
  if (sandbox) out = out.split(sandbox.root).join('<TMP>');
  return out
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT')
    .replace(/\d{8}T\d{6}Z(-\d+)?/g, '<STAMP>')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<TIME>')
    .replace(/sk-…[A-Za-z0-9]{4}/g, 'sk-…XXXX')
    .replace(/Retry-After: \d+ s/g, 'Retry-After: N s')
    .replace(/wait \d+ s/g, 'wait N s');
}
