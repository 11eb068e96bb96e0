// `gwctl diagnose` as one operation: build the context, run the checks for the status, report with
// the verdict (one root cause and its evidence).
import { createDiagnoseContext, type DiagnoseDeps } from './diagnose-context.ts';
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

export async function runDiagnosis(deps: DiagnoseDeps, options: RunOptions & { clientExitCode?: number } = {}): Promise<DiagnosisReport> {
  const context = createDiagnoseContext(deps);
  const results = await runChecks(diagnoseChecks(deps.status, context.client), context, options);
  return { ...toReport(results), client: context.client, verdict: verdictOf(results, { clientExitCode: options.clientExitCode, status: deps.status }) };
}
