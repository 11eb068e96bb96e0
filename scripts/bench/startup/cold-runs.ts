// Cold whole-process runs: every command is started as a new process, rounds interleave the
// commands (rotating their order) so machine noise spreads evenly, and each command's wall time is
// the median over the rounds.
import { spawnSync } from 'node:child_process';

export interface Command {
  name: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  /** Exit code the command must end with (a benchmark of a failing command measures nothing). */
  expectCode?: number;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function once(command: Command, cwd: string): number {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, command.args, { cwd, env: command.env ?? process.env, stdio: ['ignore', 'ignore', 'pipe'], timeout: 60_000 });
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== (command.expectCode ?? 0)) {
    throw new Error(`${command.name} exited ${result.status} (expected ${command.expectCode ?? 0}): ${result.stderr?.toString() ?? ''}`);
  }
  return elapsed;
}

/** Returns each command's samples in ms, after one unmeasured warm-up run of each (file cache). */
export function coldRuns(commands: Command[], rounds: number, cwd: string): Map<string, number[]> {
  const samples = new Map(commands.map((c) => [c.name, [] as number[]]));
  for (const command of commands) once(command, cwd);
  for (let round = 0; round < rounds; round += 1) {
    for (let i = 0; i < commands.length; i += 1) {
      const command = commands[(round + i) % commands.length]!;
      samples.get(command.name)!.push(once(command, cwd));
    }
  }
  return samples;
}
