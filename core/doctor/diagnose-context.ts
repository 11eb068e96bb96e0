// What the diagnosis checks look at, gathered once and shared: the client profile, the execution
// plane, proxy health, pinned settings, the effective variables, the proxy's upstream and one direct
// request. Everything is lazy and memoised, and every outside effect comes in through DiagnoseDeps.
import { fetchModels, type ModelsCall } from '../client/gateway-client.ts';
import type { HttpGet } from '../client/http-get.ts';
import { readProxyServiceDefinition } from '../client/proxy-service-definition.ts';
import { probeProxyHealth, type ProxyHealth } from '../client/proxy-client.ts';
import { findPinned, type PinScan } from '../client-settings/find-pinned.ts';
import type { PinRole } from '../client-settings/pinned-entry.ts';
import { clientProfile, type ClientProfile } from '../config/client-profile.ts';
import type { ResolvedSettings } from '../config/resolve-settings.ts';
import { serviceAddress, type ServiceAddress } from '../config/service-address.ts';
import { executionPlane, type ExecutionPlane } from '../launch/execution-plane.ts';
import { resolveCommand } from '../launch/resolve-command.ts';
import { sameAddress } from '../launch/same-address.ts';
import { shellStartupFiles } from '../paths.ts';
import type { TemplateVars } from './fill-template.ts';

export interface DiagnoseDeps {
  env: NodeJS.ProcessEnv;
  cwd: string;
  settings: ResolvedSettings;
  http: HttpGet;
  /** The status the user saw (`--status`), if any. */
  status?: number;
  platform?: NodeJS.Platform;
  procVersion?: () => string;
  probeTimeoutMs?: number;
  requestTimeoutMs?: number;
}

export interface EffectiveValue {
  value: string | undefined;
  /** `shell`, or the settings file whose env block pins it (it wins over the shell). */
  source: string;
  pinned: boolean;
}

export interface UpstreamSetting {
  /** Undefined: left at the proxy's built-in default. */
  value: string | undefined;
  source: 'service-file' | 'environment';
  file?: string;
  kind?: 'systemd' | 'launchd';
  /** CACHE_FIX_PROXY_UPSTREAM in this shell, when a service definition is read instead. */
  shellValue?: string;
}

export interface DiagnoseContext {
  status?: number;
  env: NodeJS.ProcessEnv;
  cwd: string;
  profile: ClientProfile;
  service: ServiceAddress;
  proxyUrl: string;
  vars: TemplateVars;
  requestTimeoutMs: number;
  plane(): ExecutionPlane;
  proxyHealth(): Promise<ProxyHealth>;
  pins(): PinScan;
  effective(role: PinRole): EffectiveValue;
  /** The client's effective base address points at the proxy. */
  proxyMeant(): boolean;
  upstream(): UpstreamSetting;
  /** GET {base_url}/v1/models with the effective token; undefined when there is no token. */
  direct(): Promise<ModelsCall | undefined>;
  directUrl: string;
}

function once<T>(make: () => T): () => T {
  let done = false;
  let value: T;
  return () => {
    if (!done) {
      value = make();
      done = true;
    }
    return value;
  };
}

function pinRank(file: string, cwd: string): number {
  const inProject = file.startsWith(`${cwd}/`);
  if (inProject && file.endsWith('settings.local.json')) return 3;
  return inProject ? 2 : 1;
}

export function createDiagnoseContext(deps: DiagnoseDeps): DiagnoseContext {
  const profile = clientProfile(deps.settings, deps.env, deps.cwd);
  const service = serviceAddress(deps.settings);
  const proxyUrl = (deps.settings.proxyUrl.value as string).replace(/(\/v1)+$/, '');
  const vars: TemplateVars = { base_url: service.root, proxy_url: proxyUrl, token_var: profile.tokenVar, base_var: profile.baseUrlVar };
  const requestTimeoutMs = deps.requestTimeoutMs ?? 10_000;
  const directUrl = `${service.root}/v1/models`;
  const varOf: Record<PinRole, string> = { baseUrl: profile.baseUrlVar, token: profile.tokenVar, apiKey: profile.apiKeyVar };

  const pins = once(() =>
    findPinned({
      settingsFiles: profile.settingsFiles,
      shellFiles: shellStartupFiles(deps.env),
      vars: { baseUrl: profile.baseUrlVar, token: profile.tokenVar, apiKey: profile.apiKeyVar },
    }),
  );

  const effective = (role: PinRole): EffectiveValue => {
    const pinned = pins()
      .entries.filter((e) => e.fileKind === 'settings' && e.role === role)
      .sort((a, b) => pinRank(b.file, deps.cwd) - pinRank(a.file, deps.cwd))[0];
    if (pinned) return { value: pinned.value, source: pinned.file, pinned: true };
    const value = deps.env[varOf[role]];
    return { value: value === '' ? undefined : value, source: 'shell', pinned: false };
  };

  const context: DiagnoseContext = {
    status: deps.status,
    env: deps.env,
    cwd: deps.cwd,
    profile,
    service,
    proxyUrl,
    vars,
    requestTimeoutMs,
    directUrl,
    plane: once(() => executionPlane(deps.env, resolveCommand(profile.command, deps.env, deps.cwd), deps.procVersion)),
    proxyHealth: once(() => probeProxyHealth(deps.http, proxyUrl, deps.probeTimeoutMs ?? 1500)),
    pins,
    effective,
    proxyMeant: () => sameAddress(effective('baseUrl').value, proxyUrl),
    upstream: once((): UpstreamSetting => {
      const definition = readProxyServiceDefinition(deps.env, deps.platform);
      if (definition) {
        const value = definition.environment.CACHE_FIX_PROXY_UPSTREAM;
        const shellValue = deps.env.CACHE_FIX_PROXY_UPSTREAM || undefined;
        return { value: value === '' ? undefined : value, source: 'service-file', file: definition.file, kind: definition.kind, shellValue };
      }
      const value = deps.env.CACHE_FIX_PROXY_UPSTREAM;
      return { value: value === '' ? undefined : value, source: 'environment' };
    }),
    direct: once(async () => {
      const token = effective('token').value;
      if (!token) return undefined;
      return fetchModels(deps.http, directUrl, token, requestTimeoutMs);
    }),
  };
  return context;
}
