// Runs checks in their declared order (the spec's order), reporting each result as it completes.
import type { Check, CheckResult } from './check.ts';

export interface RunOptions {
  /** Called after each check, e.g. to print progress on stderr. */
  onResult?: (result: CheckResult) => void;
  /** Called before each check starts. */
  onStart?: (id: string) => void;
}

export async function runChecks<C>(checks: ReadonlyArray<Check<C>>, context: C, options: RunOptions = {}): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const check of checks) {
    options.onStart?.(check.id);
    let result: CheckResult;
    try {
      result = { id: check.id, ...(await check.run(context, results)) };
    } catch (error) {
      throw new Error(`check ${check.id} failed to run: ${(error as Error)?.message ?? error}`, { cause: error });
    }
    results.push(result);
    options.onResult?.(result);
  }
  return results;
}
