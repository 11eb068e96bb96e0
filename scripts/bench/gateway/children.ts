// Child processes of the gateway benchmark: start one and wait for its "ready" line, run one-shot
// commands, read memory and CPU time from /proc, and stop every child we started (by pid), also
// when the run fails or is interrupted.
//
// Every long-running child notices when the benchmark dies, even by SIGKILL: it holds a pipe as
// stdin and stops at end-of-file. The helper servers watch their stdin themselves; a program that
// does not (the gateway) runs under a small `sh` guard that waits for end-of-file, then sends it
// SIGTERM and waits for it. `Started.pid` is the program's own pid, so /proc readings are its own.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface StartOptions {
  name: string;
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Matched against the child's stdout; the match is returned once it appears. */
  ready: RegExp;
  timeoutMs: number;
  /** The program does not watch its stdin: run it under the sh guard. */
  guard?: boolean;
}

export interface Started {
  name: string;
  process: ChildProcess;
  /** The program's pid (not the guard's). */
  pid: number;
  match: RegExpMatchArray;
  stderrTail(): string;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const TAIL = 8 * 1024;

// "$@" runs in the background with stdin from /dev/null; its exit status becomes the guard's.
const GUARD = '"$@" & pid=$!; echo "guarded-pid:$pid"; while read -r _; do :; done; kill -TERM "$pid" 2>/dev/null; wait "$pid"';
const GUARDED_PID = /guarded-pid:(\d+)\n/;

export class Children {
  private readonly running = new Map<ChildProcess, { guardedPid?: number }>();

  start(options: StartOptions): Promise<Started> {
    const [command, args] = options.guard ? ['sh', ['-c', GUARD, 'sh', options.command, ...options.args]] : [options.command, options.args];
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
    const entry: { guardedPid?: number } = {};
    this.track(child, entry);
    let stdout = '';
    let stderr = '';
    let ready = false;
    child.stderr!.setEncoding('utf8').on('data', (s: string) => {
      stderr = (stderr + s).slice(-TAIL);
    });
    return new Promise<Started>((resolve, reject) => {
      const timer = setTimeout(() => fail(`did not become ready within ${options.timeoutMs} ms`), options.timeoutMs);
      const fail = (why: string) => {
        if (ready) return;
        ready = true;
        clearTimeout(timer);
        reject(new Error(`${options.name} ${why}.\n--- stdout ---\n${stdout.slice(-TAIL)}\n--- stderr ---\n${stderr}`));
      };
      child.once('error', (error) => fail(`could not start (${error.message})`));
      child.once('exit', (code, signal) => fail(`exited before it was ready (code ${code}, signal ${signal})`));
      child.stdout!.setEncoding('utf8').on('data', (s: string) => {
        if (ready) return; // keep draining the pipe, nothing more to look for
        stdout = (stdout + s).slice(-TAIL);
        if (options.guard && entry.guardedPid === undefined) {
          const pid = stdout.match(GUARDED_PID);
          if (!pid) return;
          entry.guardedPid = Number(pid[1]);
          stdout = stdout.replace(GUARDED_PID, '');
        }
        const match = stdout.match(options.ready);
        if (!match) return;
        ready = true;
        clearTimeout(timer);
        resolve({ name: options.name, process: child, pid: entry.guardedPid ?? child.pid!, match, stderrTail: () => stderr });
      });
    });
  }

  /** Runs a command to completion (tracked like the servers); resolves with its stdout. */
  run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; input?: string; timeoutMs: number }): Promise<string> {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'], timeout: options.timeoutMs });
    this.track(child, {});
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr = (stderr + s).slice(-TAIL)));
    child.stdin!.on('error', () => undefined).end(options.input ?? '');
    return new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (code, signal) => {
        if (code === 0) resolve(stdout);
        else reject(new Error(`${[command, ...args].join(' ')} failed (code ${code}, signal ${signal}): ${stderr.trim()}`));
      });
    });
  }

  /**
   * Asks a child to stop (SIGTERM, or end-of-file for a guarded one), then SIGKILLs whatever is
   * left after graceMs. Resolves with the exit of the child (a guard exits with its program's status).
   */
  async stop(child: ChildProcess, graceMs = 15_000): Promise<Exit> {
    if (child.exitCode !== null || child.signalCode !== null) return { code: child.exitCode, signal: child.signalCode };
    const entry = this.running.get(child);
    const exited = new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    if (entry?.guardedPid !== undefined) child.stdin!.end();
    else child.kill('SIGTERM');
    const timer = setTimeout(() => this.kill(child, 'SIGKILL'), graceMs);
    const result = await exited;
    clearTimeout(timer);
    return result;
  }

  /** Stops every child still running. */
  async stopAll(graceMs = 15_000): Promise<void> {
    await Promise.all([...this.running.keys()].map((child) => this.stop(child, graceMs)));
  }

  /** Last resort from a synchronous 'exit' handler. */
  killAllNow(): void {
    for (const child of this.running.keys()) this.kill(child, 'SIGKILL');
  }

  private track(child: ChildProcess, entry: { guardedPid?: number }): void {
    this.running.set(child, entry);
    child.once('exit', () => this.running.delete(child));
  }

  private kill(child: ChildProcess, signal: NodeJS.Signals): void {
    const guarded = this.running.get(child)?.guardedPid;
    if (guarded !== undefined) {
      try {
        process.kill(guarded, signal);
      } catch {
        // already gone
      }
    }
    child.kill(signal);
  }
}

export interface Memory {
  /** Resident set size now, MiB. */
  rssMiB: number;
  /** Peak resident set size since start (VmHWM), MiB. */
  peakMiB: number;
}

export function readMemory(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => {
    const m = status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
    if (!m) throw new Error(`/proc/${pid}/status has no ${field}`);
    return Number(m[1]);
  };
  return { rssMiB: kb('VmRSS') / 1024, peakMiB: kb('VmHWM') / 1024 };
}

/** CPU time (user + system) a process has used so far, seconds; assumes USER_HZ = 100 (Linux). */
export function readCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields after "pid (comm) ": state is [0], utime [11], stime [12].
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
