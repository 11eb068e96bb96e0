// The ordered checks of `gwctl diagnose` (spec 4.4, the order after the acceptance table), and the
// subset that can explain a status the user saw.
import type { Check } from './check.ts';
import type { DiagnoseContext } from './diagnose-context.ts';
import { clientBaseUrl } from './checks/client-base-url.ts';
import { clientCredential } from './checks/client-credential.ts';
import { clientSettingsPins } from './checks/client-settings-pins.ts';
import { directRequest } from './checks/direct-request.ts';
import { faultLocate } from './checks/fault-locate.ts';
import { keyFormat } from './checks/key-format.ts';
import { planeSame } from './checks/plane-same.ts';
import { proxyRunning } from './checks/proxy-running.ts';
import { proxyUpstream } from './checks/proxy-upstream.ts';
import { statusClassify } from './checks/status-classify.ts';

const ORDERED: ReadonlyArray<Check<DiagnoseContext>> = [
  planeSame,
  proxyRunning,
  clientBaseUrl,
  clientSettingsPins,
  clientCredential,
  keyFormat,
  proxyUpstream,
  statusClassify,
  directRequest,
  faultLocate,
];

/** Statuses `diagnose --status` starts from. */
export const DIAGNOSE_STATUSES: readonly number[] = [401, 403, 404, 429, 502, 503];

export function diagnoseChecks(status?: number): Array<Check<DiagnoseContext>> {
  if (status === undefined) return ORDERED.filter((c) => c.id !== 'status.classify' && c.id !== 'fault.locate');
  return ORDERED.filter((c) => !c.explains || c.explains.includes(status));
}
