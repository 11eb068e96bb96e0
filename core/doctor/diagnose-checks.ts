// The ordered checks of `gwctl diagnose` (the cheap local ones first, then what goes over the
// network: the proxy's upstream, the short real request, the direct request), and the subset that
// can explain a status the user saw.
import type { Check } from './check.ts';
import type { ClientKind } from './client-kind.ts';
import type { DiagnoseContext } from './diagnose-context.ts';
import { clientFound } from './checks/client-found.ts';
import { clientBaseUrl } from './checks/client-base-url.ts';
import { clientCredential } from './checks/client-credential.ts';
import { clientSettingsPins } from './checks/client-settings-pins.ts';
import { directRequest } from './checks/direct-request.ts';
import { faultLocate } from './checks/fault-locate.ts';
import { keyFormat } from './checks/key-format.ts';
import { messagesRequest } from './checks/messages-request.ts';
import { planeSame } from './checks/plane-same.ts';
import { proxyRunning } from './checks/proxy-running.ts';
import { protocolRequest } from './checks/protocol-request.ts';
import { proxyUpstream } from './checks/proxy-upstream.ts';
import { statusClassify } from './checks/status-classify.ts';

const ORDERED: ReadonlyArray<Check<DiagnoseContext>> = [
  // Installed at all: a warning (a start can still show its plan), listed first.
  clientFound,
  planeSame,
  proxyRunning,
  // Before the base address: a pinned value is the cause of a wrong one, not a second finding.
  clientSettingsPins,
  clientBaseUrl,
  clientCredential,
  keyFormat,
  proxyUpstream,
  messagesRequest,
  directRequest,
  // After the model list under the client's base URL: the same key and address, now the client's protocol.
  protocolRequest,
  faultLocate,
  // Last: it names the check among all the others that explains the status, so it agrees with the verdict.
  statusClassify,
];

/** Statuses `diagnose --status` starts from. */
export const DIAGNOSE_STATUSES: readonly number[] = [400, 401, 403, 404, 413, 429, 500, 502, 503, 504, 529];

export function diagnoseChecks(status?: number, client: ClientKind = 'messages'): Array<Check<DiagnoseContext>> {
  const fits = ORDERED.filter((c) => !c.clients || c.clients.includes(client));
  if (status === undefined) return fits.filter((c) => c.id !== 'status.classify' && c.id !== 'fault.locate');
  return fits.filter((c) => !c.explains || c.explains.includes(status));
}
