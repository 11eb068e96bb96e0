// Child processes of the translation benchmark. Long-running children stop when their stdin
// closes: the fake upstream watches its own stdin, and the gateway (which does not) runs under a
// small sh guard that waits for end-of-file and then sends it SIGTERM. So even a benchmark killed
// by SIGKILL leaves nothing behind; a normal end closes stdin, waits, and escalates by pid.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface Started {
  name: string;
  /** The program's own pid (the guarded one, not the sh guard's), for /proc readings. */
  pid: number;
  match: RegExpMatchArray;
  stderrTail(): string;
}

export interface StartOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  ready: RegExp;
  timeoutMs: number;
  /** Run under the sh guard (for programs that do not stop at end of stdin). */
  guard?: boolean;
}

const GUARD = '"$@" </dev/null & child=$!; echo "guarded $child"; while read -r _; do :; done; kill -TERM "$child" 2>/dev/null; wait "$child"';

export class ChildSet {
  private readonly children: ChildProcess[] = [];

  start(name: string, command: string, args: string[], options: StartOptions): Promise<Started> {
    const [cmd, argv] = options.guard ? ['sh', ['-c', GUARD, 'sh', command, ...args]] : [command, args];
    const child = spawn(cmd, argv, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.children.push(child);
    let stdout = '';
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr = (stderr + s).slice(-4000)));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => fail(`not ready within ${options.timeoutMs} ms`), options.timeoutMs);
      const fail = (why: string) => {
        clearTimeout(timer);
        reject(new Error(`${name}: ${why}\nstdout: ${stdout.slice(-2000)}\nstderr: ${stderr}`));
      };
      child.once('exit', (code, signal) => fail(`exited early (${code ?? signal})`));
      child.stdout!.setEncoding('utf8').on('data', (s: string) => {
        stdout += s;
        const match = options.ready.exec(stdout);
        const guarded = /guarded (\d+)/.exec(stdout);
        if (!match || (options.guard && !guarded)) return;
        clearTimeout(timer);
        child.removeAllListeners('exit');
        resolve({ name, pid: options.guard ? Number(guarded![1]) : child.pid!, match, stderrTail: () => stderr });
      });
    });
  }

  /** A one-shot command (bounded); resolves with its exit code and output. */
  run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs = 30_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
      this.children.push(child);
      let stdout = '';
      let stderr = '';
      child.stdout!.setEncoding('utf8').on('data', (s: string) => (stdout += s));
      child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s));
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`${command} ${args.join(' ')} took over ${timeoutMs} ms`));
      }, timeoutMs);
      child.once('error', reject);
      child.once('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
    });
  }

  /** Closes every child's stdin, waits for them (bounded), then SIGKILLs what is left, by pid. */
  async stopAll(graceMs = 10_000): Promise<void> {
    const alive = this.children.filter((c) => c.exitCode === null && c.signalCode === null);
    const exited = alive.map((c) => new Promise<void>((resolve) => c.once('exit', () => resolve())));
    for (const child of alive) child.stdin?.end();
    const timer = setTimeout(() => {
      for (const child of alive) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }, graceMs);
    await Promise.all(exited);
    clearTimeout(timer);
  }

  /** Last resort on process exit: synchronous SIGKILL of anything still running. */
  killNow(): void {
    for (const child of this.children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

/** User + system CPU seconds of a process so far (Linux /proc; clock ticks are 100 per second here). */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
