// The proxy engine for the CLI and the TUI: status, plan, run and acceptance over one set of
// dependencies (settings, environment, HTTP, command runner, clock). Everything returns plain data.
import { runAcceptance } from './acceptance.ts';
import { readCacheReport, type CacheReport } from './cache-report.ts';
import { undiciPost, type HttpPost } from './http-post.ts';
import { defaultDeps, profileOf, proxyUrlOf, type ProxyOperationDeps } from './operation-deps.ts';
import { planAction } from './plan-action.ts';
import type { OperationResult, PlannedChange, ProxyAction, ProxyActionOptions } from './proxy-action-types.ts';
import type { CheckReport } from './proxy-causes.ts';
import { proxyStatus, type ProxyStatusReport } from './proxy-status.ts';
import { probeRelay, type RelayReport } from './relay-probe.ts';
import { runAction } from './run-action.ts';

export type { ProxyOperationDeps } from './operation-deps.ts';
export type { OperationResult, PlannedChange, ProxyAction, ProxyActionOptions } from './proxy-action-types.ts';
export type { CheckReport } from './proxy-causes.ts';
export type { ProxyStatusReport } from './proxy-status.ts';
export type { CacheReport } from './cache-report.ts';
export type { RelayReport } from './relay-probe.ts';

export interface UpstreamCheckOptions {
  /** Variable holding the credential to send (default: the client's, by auth path). */
  keyEnv?: string;
  header?: 'bearer' | 'x-api-key';
  model?: string;
  timeoutMs?: number;
}

export interface ProxyOperations {
  status(): Promise<ProxyStatusReport>;
  plan(action: ProxyAction, options?: ProxyActionOptions): Promise<PlannedChange>;
  run(action: ProxyAction, options?: ProxyActionOptions): Promise<OperationResult>;
  acceptance(options?: { onProgress?: (checkId: string) => void; signal?: AbortSignal }): Promise<CheckReport>;
  /** `gwctl proxy upstream check`: probe a relay before it becomes the proxy's upstream. */
  checkUpstream(url: string, options?: UpstreamCheckOptions): Promise<RelayReport>;
  /** `gwctl proxy cache`: the quota-status observations per session. */
  cache(): CacheReport;
}

export function createProxyOperations(partial: Partial<ProxyOperationDeps> & { post?: HttpPost } = {}): ProxyOperations {
  const deps = defaultDeps(partial);
  const post = partial.post ?? undiciPost;
  return {
    status: () => proxyStatus(deps),
    plan: async (action, options = {}) => (await planAction(deps, action, options)).change,
    run: async (action, options = {}) => runAction(deps, await planAction(deps, action, options), options),
    acceptance: (options = {}) => runAcceptance(deps, options),
    checkUpstream: (url, options = {}) => {
      const profile = profileOf(deps);
      const keyVar = options.keyEnv ?? (profile.auth === 'vendor' ? profile.apiKeyVar : profile.auth === 'service' ? profile.tokenVar : undefined);
      const header = options.header ?? (keyVar === profile.apiKeyVar ? 'x-api-key' : 'bearer');
      return probeRelay({ url, key: keyVar ? deps.env[keyVar] || undefined : undefined, keyVar, header, model: options.model, proxyUrl: proxyUrlOf(deps), timeoutMs: options.timeoutMs ?? 10_000, post, get: deps.http });
    },
    cache: () => readCacheReport(deps.env),
  };
}
