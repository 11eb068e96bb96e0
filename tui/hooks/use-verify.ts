// Verify key: the same operation as `gwctl verify` (core/doctor/run-verify.ts), followed check by
// check. The key comes from the environment only and is shown masked by the checks themselves.
import { useCallback } from 'react';
import type { RouteType } from '../../core/doctor/classify-models-call.ts';
import { runVerify, type VerifyReport } from '../../core/doctor/run-verify.ts';
import { verifyTarget } from '../../core/doctor/verify-target.ts';
import { useEngine } from './engine.ts';
import { ProblemError } from './problem.ts';
import { useCheckRun } from './use-check-run.ts';
import { useSettings } from './use-settings.ts';

export const ROUTE_TYPES: readonly RouteType[] = ['messages', 'chat', 'images'];

export function useVerify() {
  const deps = useEngine();
  const { settings, problem } = useSettings();
  const { state, run } = useCheckRun<VerifyReport>();
  const start = useCallback(
    (type: RouteType) =>
      run(async (options) => {
        if (!settings) throw new ProblemError(problem);
        const target = verifyTarget(settings, type, deps.env);
        return runVerify(
          { keyVar: target.keyVar, key: deps.env[target.keyVar], baseUrl: target.baseUrl, routeType: type, http: deps.http, timeoutMs: deps.requestTimeoutMs ?? 10_000, vars: target.vars },
          options,
        );
      }),
    [deps, settings, problem, run],
  );
  return { state, start };
}

/** The command line that does the same. */
export function verifyCommandLine(type: RouteType): string {
  return type === 'messages' ? 'gwctl verify' : `gwctl verify --type ${type}`;
}
