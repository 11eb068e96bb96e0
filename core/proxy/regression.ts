// The regression step around a change that alters request bodies: a short session and a
// resume run through the proxy, once before and once after.
import { runClient } from './client-run.ts';
import type { ProxyOperationDeps } from './operation-deps.ts';
import type { RegressionRun } from './proxy-action-types.ts';

export async function runRegression(deps: ProxyOperationDeps, phase: 'before' | 'after', options: { signal?: AbortSignal; onOutput?: (line: string) => void } = {}): Promise<RegressionRun> {
  const short = await runClient(deps, { signal: options.signal, onOutput: options.onOutput });
  const runs = [short];
  if (short.ok) runs.push(await runClient(deps, { resume: true, signal: options.signal, onOutput: options.onOutput }));
  return { phase, ok: runs.length === 2 && runs.every((r) => r.ok), runs };
}
