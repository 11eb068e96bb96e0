// The one way gwctl runs outside programs for the proxy (npm, cache-fix-proxy, systemctl, launchctl,
// the client): output streamed line by line, a deadline, and abort on a signal. Tests substitute a
// recording fake (recording-runner.ts), so no test ever reaches the real supervisor.
import { spawn } from 'node:child_process';

export interface RunRequest {
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Kill the program after this long (default: no deadline). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Each complete line of stdout and stderr, as it arrives. */
  onOutput?: (line: string) => void;
  /** Standard input to send (default: none). */
  input?: string;
}

export interface RunResult {
  /** Null when the program did not exit by itself (not started, killed, timed out). */
  exitCode: number | null;
  stdout: string;
  /** stdout and stderr interleaved as they came. */
  output: string;
  /** Set when the program could not be started (ENOENT: not installed). */
  spawnError?: { code: string; message: string };
  aborted?: boolean;
  timedOut?: boolean;
}

export type CommandRunner = (request: RunRequest) => Promise<RunResult>;

const MAX_OUTPUT = 1024 * 1024;

/** For display: arguments quoted the way a POSIX shell would need them. */
export function commandLine(command: string, args: readonly string[]): string {
  const quote = (word: string) => (/^[A-Za-z0-9_@%+=:,./~-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);
  return [command, ...args].map(quote).join(' ');
}

export const spawnRunner: CommandRunner = (request) =>
  new Promise((resolve) => {
    let output = '';
    let stdout = '';
    let settled = false;
    const partial: Record<'out' | 'err', string> = { out: '', err: '' };
    const finish = (result: Omit<RunResult, 'output' | 'stdout'>) => {
      if (settled) return;
      settled = true;
      for (const key of ['out', 'err'] as const) if (partial[key]) request.onOutput?.(partial[key]);
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      resolve({ ...result, output, stdout });
    };
    if (request.signal?.aborted) {
      finish({ exitCode: null, aborted: true });
      return;
    }
    const child = spawn(request.command, request.args, {
      env: request.env ?? process.env,
      cwd: request.cwd,
      stdio: [request.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let aborted = false;
    let timedOut = false;
    const onAbort = () => {
      aborted = true;
      child.kill('SIGTERM');
    };
    request.signal?.addEventListener('abort', onAbort, { once: true });
    const timer = request.timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          child.kill('SIGTERM');
          setTimeout(() => child.kill('SIGKILL'), 2_000).unref();
        }, request.timeoutMs)
      : undefined;
    const take = (key: 'out' | 'err') => (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      if (output.length < MAX_OUTPUT) output += text;
      if (key === 'out' && stdout.length < MAX_OUTPUT) stdout += text;
      const lines = (partial[key] + text).split(/\r?\n/);
      partial[key] = lines.pop() ?? '';
      for (const line of lines) request.onOutput?.(line);
    };
    child.stdout!.on('data', take('out'));
    child.stderr!.on('data', take('err'));
    if (request.input !== undefined) child.stdin!.end(request.input);
    child.once('error', (error: NodeJS.ErrnoException) => finish({ exitCode: null, spawnError: { code: error.code ?? 'ERROR', message: error.message } }));
    child.once('close', (code) => finish({ exitCode: aborted || timedOut ? null : code, aborted: aborted || undefined, timedOut: timedOut || undefined }));
  });

/** One line saying how a run ended, for reports. */
export function describeRun(result: RunResult): string {
  if (result.spawnError) return `could not start (${result.spawnError.message})`;
  if (result.aborted) return 'stopped (interrupted)';
  if (result.timedOut) return 'stopped (took too long)';
  return `exit ${result.exitCode}`;
}
