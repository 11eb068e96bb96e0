// Diagnose: the same operation as `gwctl diagnose [--status N] [--no-request]`
// (core/doctor/run-diagnosis.ts): the checks in order with a cause code, what was observed and a
// remedy each, one short real request through the client's route among them, then the verdict.
import { useCallback } from 'react';
import { CLIENT_KINDS, type ClientKind } from '../../core/doctor/client-kind.ts';
import { DIAGNOSE_STATUSES } from '../../core/doctor/diagnose-checks.ts';
import { runDiagnosis, type DiagnosisReport } from '../../core/doctor/run-diagnosis.ts';
import { statusRows } from '../../core/doctor/status-row.ts';
import { useEngine } from './engine.ts';
import { ProblemError } from './problem.ts';
import { useCheckRun } from './use-check-run.ts';
import { useSettings } from './use-settings.ts';

export { CLIENT_KINDS, DIAGNOSE_STATUSES, type ClientKind };

/** How the Diagnose screen names each kind of client. */
export const CLIENT_LABELS: Record<ClientKind, string> = { messages: 'messages client (the client profile; proxy route)', chat: 'chat-completions client', images: 'image client' };

export function useDiagnose() {
  const deps = useEngine();
  const { settings, problem } = useSettings();
  const { state, run } = useCheckRun<DiagnosisReport>();
  const start = useCallback(
    (status: number | undefined, sendRequest = true, client?: ClientKind) =>
      run(async (options) => {
        if (!settings) throw new ProblemError(problem);
        return runDiagnosis(
          {
            env: deps.env,
            cwd: deps.cwd,
            settings,
            http: deps.http,
            post: deps.post,
            sendRequest,
            status,
            client,
            requestTimeoutMs: deps.requestTimeoutMs,
            probeTimeoutMs: deps.probeTimeoutMs,
            platform: deps.platform,
            procVersion: deps.procVersion,
            proxyEnvironment: deps.proxyEnvironment,
          },
          options,
        );
      }),
    [deps, settings, problem, run],
  );
  return { state, start };
}

/** One line per error-table row of a status, for the status picker: where it is seen. */
export function statusMeaning(status: number): string {
  return statusRows
    .forStatus(status, {})
    .map((r) => r.where)
    .join('; ');
}

export function diagnoseCommandLine(status: number | undefined, sendRequest = true, client?: ClientKind): string {
  const messages = !client || client === 'messages';
  return `gwctl diagnose${client && !messages ? ` --client ${client}` : ''}${status === undefined ? '' : ` --status ${status}`}${sendRequest || !messages ? '' : ' --no-request'}`;
}
