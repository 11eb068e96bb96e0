// `gwctl diagnose` as one operation: build the context, run the checks for the status, report with
// the verdict (one root cause and its evidence).
import { createDiagnoseContext, type DiagnoseContext, type DiagnoseDeps } from './diagnose-context.ts';
import { diagnoseChecks } from './diagnose-checks.ts';
import type { ClientKind } from './client-kind.ts';
import { toReport, type DoctorReport } from './report.ts';
import { runChecks, type RunOptions } from './runner.ts';
import { verdictOf, type Verdict } from './verdict.ts';

export interface DiagnosisReport extends DoctorReport {
  /** The kind of client diagnosed (`--client`). */
  client: ClientKind;
  verdict: Verdict;
}

/** The diagnosis with the context it looked at, for a support bundle that also records what was read. */
export async function diagnoseWithContext(deps: DiagnoseDeps, options: RunOptions & { clientExitCode?: number } = {}): Promise<{ report: DiagnosisReport; context: DiagnoseContext }> {
  const context = createDiagnoseContext(deps);
  const results = await runChecks(diagnoseChecks(deps.status, context.client), context, options);
  const report = { ...toReport(results), client: context.client, verdict: verdictOf(results, { clientExitCode: options.clientExitCode, status: deps.status }) };
  return { report, context };
}

export async function runDiagnosis(deps: DiagnoseDeps, options: RunOptions & { clientExitCode?: number } = {}): Promise<DiagnosisReport> {
  return (await diagnoseWithContext(deps, options)).report;
}
