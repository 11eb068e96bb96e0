// `gwctl diagnose --report FILE` as one operation: the diagnosis, with every answer's request id
// noted, turned into a support bundle (core/support/support-bundle.ts) from what it looked at.
import { arch, release } from 'node:os';
import type { DiagnoseDeps } from '../doctor/diagnose-context.ts';
import { diagnoseWithContext, type DiagnosisReport } from '../doctor/run-diagnosis.ts';
import type { RunOptions } from '../doctor/runner.ts';
import type { HttpPost } from '../proxy/http-post.ts';
import { proxyOnPath } from '../proxy/installation.ts';
import { bundleSettings } from './bundle-settings.ts';
import { requestIdLog } from './request-id-log.ts';
import { secretsOf } from './scrub-secrets.ts';
import { supportBundle, type SupportBundle } from './support-bundle.ts';

export interface SupportMeta {
  gwctlVersion: string;
  now: Date;
  /** The request ids of the failure the user met, as the client showed them (`--request-id`). */
  reportedRequestIds?: string[];
}

export async function diagnoseForSupport(deps: DiagnoseDeps & { post: HttpPost }, options: RunOptions, meta: SupportMeta): Promise<{ report: DiagnosisReport; bundle: SupportBundle }> {
  const log = requestIdLog(deps.http, deps.post);
  const { report, context } = await diagnoseWithContext({ ...deps, http: log.http, post: log.post }, options);
  const profile = context.profile;
  const pinned = [context.effective('token').value, context.effective('apiKey').value].filter((v): v is string => Boolean(v));
  const secrets = [...secretsOf(deps.env, [profile.tokenVar, profile.apiKeyVar, ...profile.tokenSources, ...profile.apiKeySources]), ...pinned];
  const bundle = supportBundle({
    createdAt: meta.now,
    versions: { gwctl: meta.gwctlVersion, node: process.version, proxy: proxyOnPath(deps.env, deps.cwd)?.version ?? null },
    platform: { os: deps.platform ?? process.platform, release: release(), arch: arch() },
    plane: context.plane(),
    settings: bundleSettings(deps.settings, context),
    report,
    status: deps.status,
    requestIds: log.ids(),
    reportedRequestIds: meta.reportedRequestIds,
    secrets,
  });
  return { report, bundle };
}
