// Acceptance: the three layers of proxy acceptance (proxy_running, claude_routed, cache_observed) through
// the proxy operations, with the layer now running and, at the end, each layer's result and
// evidence. It can be cancelled (the client session of claude_routed can take a while).
import { useCallback, useEffect, useRef, useState } from 'react';
import type { CheckReport } from '../../core/proxy/proxy-causes.ts';
import { useEngine } from './engine.ts';
import { useTask } from './use-task.ts';

export const ACCEPTANCE_LAYERS = ['proxy_running', 'claude_routed', 'cache_observed'] as const;

export class UnavailableError extends Error {
  override readonly name = 'UnavailableError';
  readonly remedy = 'Use `gwctl diagnose` (it checks proxy_running); the rest needs the proxy operations of core/proxy.';
  constructor() {
    super('The proxy operations are not available in this build of gwctl.');
  }
}

export function useAcceptance() {
  const deps = useEngine();
  const [started, setStarted] = useState<string[]>([]);
  const controller = useRef<AbortController | null>(null);
  const task = useTask(async (): Promise<CheckReport> => {
    if (!deps.proxy) throw new UnavailableError();
    setStarted([]);
    controller.current = new AbortController();
    return deps.proxy.acceptance({ onProgress: (id) => setStarted((s) => (s.includes(id) ? s : [...s, id])), signal: controller.current.signal });
  });
  useEffect(() => () => controller.current?.abort(), []);
  const { run } = task;
  const start = useCallback(() => void run(), [run]);
  const cancel = useCallback(() => controller.current?.abort(), []);
  return { state: task.state, started, start, cancel, available: deps.proxy !== null };
}
