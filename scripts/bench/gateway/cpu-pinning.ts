// Where the benchmark's processes run. On a small machine the scheduler moves the load generator,
// the fake upstream and the server under test between cores from one run to the next, and a
// server sharing a core with the load generator looks twice as slow as the same server alone: the
// bare hop's CPU per request swung from 34 to 56 µs between runs on 2 cores. Pinned, each server
// under test (bare hop, gateway) has core 1 to itself, and the load generator and the fake upstream
// (the "rest of the world") share core 0, the same for every path; results repeat within a few %.
// `--no-pin` runs unpinned; machines with one core or without `taskset` (util-linux) run unpinned.
import { execFileSync } from 'node:child_process';
import os from 'node:os';

export interface Pinning {
  /** Whether processes are pinned at all. */
  readonly on: boolean;
  /** The command and arguments that run `command args` on `cpu` (unchanged when not pinning). */
  wrap(cpu: number, command: string, args: string[]): { command: string; args: string[] };
  /** `world`: what shares core 0 (default: the load generator and the fake upstream). */
  describe(world?: string): string;
}

export const WORLD_CPU = 0;
export const SERVER_CPU = 1;

function tasksetWorks(): boolean {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Pins this process (the load generator, every thread) to the world's core and returns how to start the others. */
export function pinProcesses(wanted: boolean): Pinning {
  const on = wanted && os.availableParallelism() >= 2 && tasksetWorks();
  if (on) execFileSync('taskset', ['-a', '-c', '-p', String(WORLD_CPU), String(process.pid)], { stdio: 'ignore' });
  return {
    on,
    wrap: (cpu, command, args) => (on ? { command: 'taskset', args: ['-c', String(cpu), command, ...args] } : { command, args }),
    describe: (world = 'the load generator and the fake upstream') =>
      on
        ? `pinned with taskset: the server under test (bare hop or gateway) alone on core ${SERVER_CPU}; ${world} on core ${WORLD_CPU}`
        : wanted
          ? 'not pinned (one core, or no taskset here)'
          : 'not pinned (--no-pin)',
  };
}
