// One asynchronous operation at a time with its state: idle, running (since when), done with a
// value, or failed with a problem. A newer run or an unmount makes older results stale: they are
// dropped instead of landing on the wrong screen.
import { useCallback, useEffect, useRef, useState } from 'react';
import { toProblem, type ProblemInfo } from './problem.ts';

export type TaskState<T> =
  | { phase: 'idle' }
  | { phase: 'running'; startedAt: number }
  | { phase: 'done'; value: T; startedAt: number; endedAt: number }
  | { phase: 'failed'; problem: ProblemInfo; startedAt: number; endedAt: number };

export interface Task<T, A extends unknown[]> {
  state: TaskState<T>;
  run: (...args: A) => Promise<void>;
  reset: () => void;
}

export function useTask<T, A extends unknown[]>(work: (...args: A) => Promise<T>): Task<T, A> {
  const [state, setState] = useState<TaskState<T>>({ phase: 'idle' });
  const generation = useRef(0);
  const workRef = useRef(work);
  workRef.current = work;
  useEffect(
    () => () => {
      generation.current++;
    },
    [],
  );
  const run = useCallback(async (...args: A) => {
    const mine = ++generation.current;
    const startedAt = Date.now();
    setState({ phase: 'running', startedAt });
    try {
      const value = await workRef.current(...args);
      if (mine === generation.current) setState({ phase: 'done', value, startedAt, endedAt: Date.now() });
    } catch (error) {
      if (mine === generation.current) setState({ phase: 'failed', problem: toProblem(error), startedAt, endedAt: Date.now() });
    }
  }, []);
  const reset = useCallback(() => {
    generation.current++;
    setState({ phase: 'idle' });
  }, []);
  return { state, run, reset };
}
