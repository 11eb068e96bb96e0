// Runs a check-engine operation (verify, diagnose) and follows it check by check through the
// runner's onStart/onResult callbacks: the check now running, the results so far, the final report.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { CheckResult } from '../../core/doctor/check.ts';
import type { RunOptions } from '../../core/doctor/runner.ts';
import { toProblem, type ProblemInfo } from './problem.ts';

export interface CheckRunState<R> {
  phase: 'idle' | 'running' | 'done' | 'failed';
  running: string | null;
  results: CheckResult[];
  report: R | null;
  problem: ProblemInfo | null;
  startedAt: number;
  endedAt: number | null;
}

const IDLE: CheckRunState<never> = { phase: 'idle', running: null, results: [], report: null, problem: null, startedAt: 0, endedAt: null };

export function useCheckRun<R>(): { state: CheckRunState<R>; run: (operation: (options: RunOptions) => Promise<R>) => Promise<void> } {
  const [state, setState] = useState<CheckRunState<R>>(IDLE);
  const generation = useRef(0);
  useEffect(
    () => () => {
      generation.current++;
    },
    [],
  );
  const run = useCallback(async (operation: (options: RunOptions) => Promise<R>) => {
    const mine = ++generation.current;
    const current = () => mine === generation.current;
    setState({ ...IDLE, phase: 'running', startedAt: Date.now() });
    try {
      const report = await operation({
        onStart: (id) => current() && setState((s) => ({ ...s, running: id })),
        onResult: (result) => current() && setState((s) => ({ ...s, running: null, results: [...s.results, result] })),
      });
      if (current()) setState((s) => ({ ...s, phase: 'done', running: null, report, endedAt: Date.now() }));
    } catch (error) {
      if (current()) setState((s) => ({ ...s, phase: 'failed', running: null, problem: toProblem(error), endedAt: Date.now() }));
    }
  }, []);
  return { state, run };
}
