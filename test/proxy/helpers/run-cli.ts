import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
export const SOURCE_BIN = fileURLToPath(new URL('../../../proxy/src/bin/cache-fix-proxy.ts', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion with a hard time limit (the child is killed if it overruns). */
export function runCommand(command: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs = 20_000, cwd = repoRoot): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} did not finish within ${timeoutMs} ms\n${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The CLI from source, through tsx, with a clean environment (no inherited proxy settings). */
export function runSourceCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  return runCommand(process.execPath, ['--import', 'tsx', SOURCE_BIN, ...args], { PATH: process.env.PATH ?? '', ...env });
}

export interface RunningCli {
  child: ChildProcess;
  port: number;
  stdout(): string;
  stderr(): string;
  stop(): Promise<number | null>;
}

/** Starts `server` and waits for its readiness line (`proxy listening on <addr>:<port>`). */
export function startServerProcess(command: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs = 20_000, cwd = repoRoot): Promise<RunningCli> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not become ready within ${timeoutMs} ms\n${stderr}`));
    }, timeoutMs);
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout?.on('data', (d: Buffer) => {
      stdout += d.toString();
      const match = /listening on [\d.]+:(\d+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve({
          child,
          port: Number(match[1]),
          stdout: () => stdout,
          stderr: () => stderr,
          stop: () => {
            if (child.exitCode === null) child.kill('SIGTERM');
            return exited;
          },
        });
      }
    });
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before ready\n${stderr}`));
    });
  });
}
