// `gwctl diagnose` as one operation: build the context, run the checks for the status, report.
import { createDiagnoseContext, type DiagnoseDeps } from './diagnose-context.ts';
import { diagnoseChecks } from './diagnose-checks.ts';
import { toReport, type DoctorReport } from './report.ts';
import { runChecks, type RunOptions } from './runner.ts';

export async function runDiagnosis(deps: DiagnoseDeps, options: RunOptions = {}): Promise<DoctorReport> {
  const context = createDiagnoseContext(deps);
  const results = await runChecks(diagnoseChecks(deps.status), context, options);
  return toReport(results);
}
