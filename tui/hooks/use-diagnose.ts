// Diagnose: the same operation as `gwctl diagnose [--status N]` (core/doctor/run-diagnosis.ts), the
// checks in the spec's order with a cause code, what was observed and a remedy each.
import { useCallback } from 'react';
import { DIAGNOSE_STATUSES } from '../../core/doctor/diagnose-checks.ts';
import type { DoctorReport } from '../../core/doctor/report.ts';
import { runDiagnosis } from '../../core/doctor/run-diagnosis.ts';
import { statusRows } from '../../core/doctor/status-row.ts';
import { useEngine } from './engine.ts';
import { ProblemError } from './problem.ts';
import { useCheckRun } from './use-check-run.ts';
import { useSettings } from './use-settings.ts';

export { DIAGNOSE_STATUSES };

export function useDiagnose() {
  const deps = useEngine();
  const { settings, problem } = useSettings();
  const { state, run } = useCheckRun<DoctorReport>();
  const start = useCallback(
    (status: number | undefined) =>
      run(async (options) => {
        if (!settings) throw new ProblemError(problem);
        return runDiagnosis(
          { env: deps.env, cwd: deps.cwd, settings, http: deps.http, status, requestTimeoutMs: deps.requestTimeoutMs, probeTimeoutMs: deps.probeTimeoutMs, platform: deps.platform, procVersion: deps.procVersion },
          options,
        );
      }),
    [deps, settings, problem, run],
  );
  return { state, start };
}

/** One line per spec 7 row of a status, for the status picker: where it is seen and the condition. */
export function statusMeaning(status: number): string {
  return statusRows
    .forStatus(status, {})
    .map((r) => r.where)
    .join('; ');
}

export function diagnoseCommandLine(status: number | undefined): string {
  return status === undefined ? 'gwctl diagnose' : `gwctl diagnose --status ${status}`;
}
