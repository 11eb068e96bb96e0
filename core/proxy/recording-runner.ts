// A stand-in runner that records every command and answers the supervisor (systemctl, launchctl)
// itself, so tests and dry runs never touch the real one. Other commands go to `passthrough` when
// given (e.g. the real npm into a temp prefix), else they are answered too.
import type { CommandRunner, RunRequest, RunResult } from './command-runner.ts';

export interface RecordedCall {
  command: string;
  args: string[];
  /** The CACHE_FIX_* and npm_config_* variables the command was given (nothing secret). */
  env: Record<string, string>;
}

export interface RecordingOptions {
  /** Scripted answer for a call; undefined = exit 0 with no output. */
  answer?: (call: RecordedCall) => Partial<RunResult> | undefined;
  /** Runs the commands that are not intercepted. */
  passthrough?: CommandRunner;
  /** Commands answered by the fake (default: systemctl and launchctl). */
  intercept?: readonly string[];
}

export class RecordingRunner {
  readonly calls: RecordedCall[] = [];
  private readonly intercept: readonly string[];

  constructor(private readonly options: RecordingOptions = {}) {
    this.intercept = options.intercept ?? ['systemctl', 'launchctl'];
  }

  /** The recorded command lines, e.g. `systemctl --user restart cache-fix-proxy`. */
  lines(filter?: string): string[] {
    return this.calls.filter((c) => !filter || c.command === filter).map((c) => [c.command, ...c.args].join(' '));
  }

  readonly run: CommandRunner = async (request: RunRequest) => {
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.env ?? {})) {
      if (value !== undefined && /^(CACHE_FIX_|npm_config_prefix$)/.test(name)) env[name] = value;
    }
    const call: RecordedCall = { command: request.command, args: [...request.args], env };
    this.calls.push(call);
    const base = request.command.split('/').pop()!;
    if (!this.intercept.includes(base) && this.options.passthrough) return this.options.passthrough(request);
    const scripted = this.options.answer?.(call) ?? {};
    const output = scripted.output ?? scripted.stdout ?? '';
    for (const line of output.split('\n').filter(Boolean)) request.onOutput?.(line);
    return { exitCode: 0, stdout: scripted.stdout ?? output, ...scripted, output };
  };
}
