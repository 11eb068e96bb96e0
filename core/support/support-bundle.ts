// The support bundle `gwctl diagnose --report FILE` writes: what the service's support desk needs to
// find the cause without asking back, and nothing secret. `gwctl admin support FILE` reads it.
//
// Shape (schemaVersion 1), one JSON document:
// {
//   "schemaVersion": 1,
//   "kind": "gwctl-support-bundle",
//   "createdAt": "2026-11-27T09:00:00.000Z",            // ISO time, UTC
//   "versions": { "gwctl": "1.2.3", "node": "v22.…", "proxy": "4.2.1" | null },   // proxy: the copy PATH runs
//   "platform": { "os": "linux", "release": "6.8.0", "arch": "x64", "wsl": false },
//   "executionPlane": { "wsl": false, "distro": null, "clientPath": "/usr/bin/claude" | null, "windowsClient": false, "mismatch": false, "observed": "…" },
//   "settings": [ { "name": "baseUrl", "value": "https://gw.example.com", "source": "env GWCTL_BASE_URL" },
//                 { "name": "ANTHROPIC_AUTH_TOKEN", "value": "sk-…a1b2", "source": "shell" }, … ],   // secrets masked
//   "client": "messages" | "chat" | "images",
//   "status": 401 | null,                               // the status the user reported (--status)
//   "checks": [ { "id", "status", "cause", "observed", "remedy", "commands" } ],   // as `gwctl diagnose --json`
//   "verdict": { "cause", "check", "observed", "remedy", "commands", "evidence" },
//   "requestIds": [ "req_…" ],                          // every x-request-id / request-id seen in answers
//   "reportedRequestIds": [ "req_…" ]                   // the ids of the failure the user saw (--request-id), first
// }
// Every string of the bundle is scrubbed of the run's key and token values before it is written.
import type { DiagnosisReport } from '../doctor/run-diagnosis.ts';
import type { ExecutionPlane } from '../launch/execution-plane.ts';
import type { BundleSetting } from './bundle-settings.ts';
import { scrubSecrets } from './scrub-secrets.ts';

export const SUPPORT_BUNDLE_KIND = 'gwctl-support-bundle';

export interface SupportBundle {
  schemaVersion: 1;
  kind: typeof SUPPORT_BUNDLE_KIND;
  createdAt: string;
  versions: { gwctl: string; node: string; proxy: string | null };
  platform: { os: NodeJS.Platform; release: string; arch: string; wsl: boolean };
  executionPlane: { wsl: boolean; distro: string | null; clientPath: string | null; windowsClient: boolean; mismatch: boolean; observed: string };
  settings: BundleSetting[];
  client: DiagnosisReport['client'];
  status: number | null;
  checks: DiagnosisReport['checks'];
  verdict: DiagnosisReport['verdict'];
  requestIds: string[];
  /** The request ids of the failure the user met (`--request-id`), as the client showed them. */
  reportedRequestIds: string[];
}

export interface SupportBundleInput {
  createdAt: Date;
  versions: SupportBundle['versions'];
  platform: Omit<SupportBundle['platform'], 'wsl'>;
  plane: ExecutionPlane;
  settings: BundleSetting[];
  report: DiagnosisReport;
  status?: number;
  requestIds: string[];
  reportedRequestIds?: string[];
  /** The credential values of this run, removed wherever they might appear. */
  secrets: readonly string[];
}

export function supportBundle(input: SupportBundleInput): SupportBundle {
  const { plane, report } = input;
  const bundle: SupportBundle = {
    schemaVersion: 1,
    kind: SUPPORT_BUNDLE_KIND,
    createdAt: input.createdAt.toISOString(),
    versions: input.versions,
    platform: { ...input.platform, wsl: plane.wsl },
    executionPlane: { wsl: plane.wsl, distro: plane.distro ?? null, clientPath: plane.clientPath ?? null, windowsClient: plane.windowsClient, mismatch: plane.mismatch, observed: plane.observed },
    settings: input.settings,
    client: report.client,
    status: input.status ?? null,
    checks: report.checks,
    verdict: report.verdict,
    requestIds: [...new Set([...(input.reportedRequestIds ?? []), ...input.requestIds])],
    reportedRequestIds: input.reportedRequestIds ?? [],
  };
  return scrubSecrets(bundle, input.secrets);
}
