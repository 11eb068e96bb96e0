// The home status panel: each row fills in as its operation finishes. Base URL and key presence
// come from the settings and the environment at once; the key is verified with the same operation
// as `gwctl verify`, the proxy probed like every check does (and its install described by the proxy
// operations when they are available), and the route is the one `gwctl start` would take.
import { useEffect } from 'react';
import { probeProxyHealth, type ProxyHealth } from '../../core/client/proxy-client.ts';
import { clientProfile } from '../../core/config/client-profile.ts';
import type { ResolvedSetting } from '../../core/config/resolve-settings.ts';
import { findCredential } from '../../core/launch/client-credential.ts';
import { maskCredential } from '../../core/doctor/mask-credential.ts';
import { runVerify, type VerifyReport } from '../../core/doctor/run-verify.ts';
import { verifyTarget } from '../../core/doctor/verify-target.ts';
import { planStart, type StartPlan } from '../../core/launch/plan-start.ts';
import { tildePath } from '../../core/paths.ts';
import { useEngine } from './engine.ts';
import { ProblemError } from './problem.ts';
import { describeProxyStatus, type ProxyStatusView } from './proxy-status-view.ts';
import { useSettings } from './use-settings.ts';
import { useTask } from './use-task.ts';

export interface KeyInfo {
  /** The variable the client's credential comes from; null for a subscription login. */
  variable: string | null;
  masked: string | null;
  /** Whether this service can verify it (only keys of this service). */
  verifiable: boolean;
}

export function settingSource(setting: ResolvedSetting, env: NodeJS.ProcessEnv): string {
  if (setting.source === 'default') return 'default';
  if (setting.source === 'profile') return `profile ${setting.origin}`;
  if (setting.source === 'file') return `file ${tildePath(setting.origin ?? '', env)}`;
  return `${setting.source} ${setting.origin}`;
}

export function useHomeStatus() {
  const deps = useEngine();
  const { settings, problem } = useSettings();

  const auth = settings?.['client.auth'].value as 'service' | 'vendor' | 'oauth' | undefined;
  // Where gwctl start finds the key: the client's own variable, else the neutral MSGAPI_* name.
  const credential = (() => {
    try {
      return settings ? findCredential(clientProfile(settings, deps.env, deps.cwd), deps.env) : null;
    } catch {
      return null;
    }
  })();
  const keyVar = credential ? (credential.foundIn ?? credential.clientVar) : null;
  const keyValue = credential?.value;
  const key: KeyInfo = { variable: keyVar, masked: keyValue ? maskCredential(keyValue) : null, verifiable: auth === 'service' };
  const baseUrl = settings ? { value: settings.baseUrl.value as string | null, source: settingSource(settings.baseUrl, deps.env) } : null;

  const verify = useTask(async (): Promise<VerifyReport> => {
    if (!settings) throw new ProblemError(problem);
    const target = verifyTarget(settings, 'messages', deps.env);
    return runVerify({ keyVar: target.keyVar, key: deps.env[target.keyVar], baseUrl: target.baseUrl, routeType: 'messages', http: deps.http, timeoutMs: deps.requestTimeoutMs ?? 10_000, vars: target.vars });
  });
  const health = useTask(async (): Promise<ProxyHealth> => {
    if (!settings) throw new ProblemError(problem);
    return probeProxyHealth(deps.http, (settings.proxyUrl.value as string).replace(/(\/v1)+$/, ''), deps.probeTimeoutMs);
  });
  const proxy = useTask(async (): Promise<ProxyStatusView | null> => (deps.proxy ? describeProxyStatus(await deps.proxy.status(), deps.env) : null));
  const route = useTask(async (): Promise<StartPlan> => {
    if (!settings) throw new ProblemError(problem);
    return (await planStart({ settings, env: deps.env, cwd: deps.cwd, clientArgs: [], dryRun: true, http: deps.http, procVersion: deps.procVersion, probeTimeoutMs: deps.probeTimeoutMs })).plan;
  });

  // Everything is looked at once per mounting; the home screen remounts the panel to refresh it.
  const canVerify = Boolean(settings?.baseUrl.value && key.verifiable && key.masked);
  useEffect(() => {
    if (canVerify) void verify.run();
    else verify.reset();
    void health.run();
    void proxy.run();
    void route.run();
  }, [settings, canVerify, verify.run, verify.reset, health.run, proxy.run, route.run]);

  return { settingsProblem: problem, baseUrl, key, verify: verify.state, health: health.state, proxy: proxy.state, route: route.state };
}
