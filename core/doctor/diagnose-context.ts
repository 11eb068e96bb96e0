// What the diagnosis checks look at, gathered once and shared: the client profile, the execution
// plane, proxy health, pinned settings, the effective variables, the proxy's upstream, the route and
// model gwctl start would use, one direct model-list request and one short real messages request
// through that route. Everything is lazy and memoised, and every outside effect comes in through
// DiagnoseDeps.
import { fetchModels, type ModelsCall } from '../client/gateway-client.ts';
import { sendProtocolProbe, type ProtocolCall } from './protocol-probe.ts';
import type { HttpGet } from '../client/http-get.ts';
import { readProxyServiceDefinition } from '../client/proxy-service-definition.ts';
import { probeProxyHealth, type ProxyHealth } from '../client/proxy-client.ts';
import { findPinned, type PinScan } from '../client-settings/find-pinned.ts';
import type { PinRole } from '../client-settings/pinned-entry.ts';
import { clientProfile, type ClientProfile } from '../config/client-profile.ts';
import type { ResolvedSettings } from '../config/resolve-settings.ts';
import { serviceAddress, type ServiceAddress } from '../config/service-address.ts';
import { executionPlane, type ExecutionPlane } from '../launch/execution-plane.ts';
import { chooseModel, isTextModel, needsModelList, type ModelChoice, type ModelList } from '../launch/model-choice.ts';
import { resolveCommand } from '../launch/resolve-command.ts';
import { routeFor, type RouteDecision } from '../launch/route-decision.ts';
import { sameAddress } from '../launch/same-address.ts';
import { shellStartupFiles } from '../paths.ts';
import { proxyPort } from '../proxy/client-session.ts';
import type { HttpPost } from '../proxy/http-post.ts';
import type { ProxyEnvironmentReader } from '../proxy/running-proxy-environment.ts';
import { PROXY_BIN } from '../proxy/package-spec.ts';
import type { TemplateVars } from './fill-template.ts';
import { defaultClientKind, type ClientKind } from './client-kind.ts';
import { modelsUrlFor } from './verify-context.ts';
import { verifyTarget, type VerifyTarget } from './verify-target.ts';
import { sendMessagesProbe, type MessagesCall } from './messages-probe.ts';

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
  /**
   * Sends the short real POST /v1/messages. Absent, or `sendRequest: false` (`--no-request`): the
   * request is not sent and its check says so.
   */
  post?: HttpPost;
  sendRequest?: boolean;
  /** The kind of client (`--client`); default: the configured client profile's protocol. */
  client?: ClientKind;
  /**
   * Reads the environment of the proxy process listening on the proxy port (same user only). Absent:
   * not looked at, and a running proxy's upstream is known only from its service definition or the
   * short real request.
   */
  proxyEnvironment?: ProxyEnvironmentReader;
}

export interface EffectiveValue {
  value: string | undefined;
  /** The variable it was found in (for a key, the client's own or the neutral MSGAPI_* name). */
  variable: string;
  /** `shell`, or the settings file whose env block pins it (it wins over the shell). */
  source: string;
  pinned: boolean;
}

export interface UpstreamSetting {
  /** Undefined: left at the proxy's built-in default. */
  value: string | undefined;
  /**
   * Where the value was read: the running proxy's own process environment, the installed service
   * definition, or this shell (which is the proxy's only when it is started from here).
   */
  source: 'process' | 'service-file' | 'environment';
  /** The proxy process whose environment was read (source `process`). */
  pid?: number;
  /** The installed service definition, when there is one (also with source `process`). */
  file?: string;
  kind?: 'systemd' | 'launchd';
  /** CACHE_FIX_PROXY_UPSTREAM in this shell, when the value is read elsewhere. */
  shellValue?: string;
}

export interface ProxyUse {
  /** Installed, configured or running: false means this machine does not use the optional proxy. */
  used: boolean;
  /** What shows it is used, or that nothing does. */
  observed: string;
}

export interface DiagnoseContext {
  status?: number;
  client: ClientKind;
  /** For a chat or image client: the base URL it uses and the variable its key is read from (as verify). */
  target(): VerifyTarget;
  /** For a chat or image client: GET {its base URL}/models, the entry it reaches; undefined without a key. */
  clientCall(): Promise<ModelsCall | undefined>;
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
  /** Whether this machine uses the proxy at all. */
  proxyUse(): Promise<ProxyUse>;
  /** GET {base_url}/v1/models with the effective token; undefined when there is no token. */
  direct(): Promise<ModelsCall | undefined>;
  directUrl: string;
  /** The route gwctl start would take now: the proxy when healthy, else direct. */
  route(): Promise<RouteDecision>;
  /** The model gwctl start would give the client. */
  model(): Promise<ModelChoice>;
  /** The short real POST /v1/messages through that route, or why it was not sent. */
  messages(): Promise<MessagesCall | { notSent: string }>;
  /** A chat client's short real request in its own protocol (chat, Responses or Gemini), or why it was not sent. */
  protocolCall(): Promise<ProtocolCall | { notSent: string }>;
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

  // The key may be kept in the client's own variable or in the neutral name; gwctl start hands it on.
  const shellSources: Record<PinRole, string[]> = { baseUrl: [profile.baseUrlVar], token: profile.tokenSources, apiKey: profile.apiKeySources };

  const effective = (role: PinRole): EffectiveValue => {
    const pinned = pins()
      .entries.filter((e) => e.fileKind === 'settings' && e.role === role)
      .sort((a, b) => pinRank(b.file, deps.cwd) - pinRank(a.file, deps.cwd))[0];
    if (pinned) return { value: pinned.value, variable: pinned.variable, source: pinned.file, pinned: true };
    const found = shellSources[role].find((name) => deps.env[name] !== undefined && deps.env[name] !== '');
    return { value: found ? deps.env[found] : undefined, variable: found ?? varOf[role], source: 'shell', pinned: false };
  };

  const client = deps.client ?? defaultClientKind(profile);
  const target = once(() => verifyTarget(deps.settings, client, deps.env));
  const context: DiagnoseContext = {
    status: deps.status,
    client,
    target,
    clientCall: once(async () => {
      const t = target();
      const key = deps.env[t.keyVar];
      if (!key) return undefined;
      return fetchModels(deps.http, modelsUrlFor({ baseUrl: t.baseUrl, routeType: client }), key, requestTimeoutMs);
    }),
    env: deps.env,
    cwd: deps.cwd,
    profile,
    service,
    proxyUrl,
    vars,
    requestTimeoutMs,
    directUrl,
    plane: once(() => executionPlane(deps.env, resolveCommand(profile.command, deps.env, deps.cwd), deps.procVersion)),
    proxyHealth: once(() => probeProxyHealth(deps.http, proxyUrl, deps.probeTimeoutMs)),
    pins,
    effective,
    proxyMeant: () => sameAddress(effective('baseUrl').value, proxyUrl),
    upstream: once((): UpstreamSetting => {
      const definition = readProxyServiceDefinition(deps.env, deps.platform);
      const installed = definition ? { file: definition.file, kind: definition.kind } : {};
      const shellValue = deps.env.CACHE_FIX_PROXY_UPSTREAM || undefined;
      const running = deps.proxyEnvironment?.(proxyPort(proxyUrl));
      if (running) return { value: running.environment.CACHE_FIX_PROXY_UPSTREAM || undefined, source: 'process', pid: running.pid, ...installed, shellValue };
      if (definition) return { value: definition.environment.CACHE_FIX_PROXY_UPSTREAM || undefined, source: 'service-file', ...installed, shellValue };
      return { value: shellValue, source: 'environment' };
    }),
    proxyUse: once(async (): Promise<ProxyUse> => {
      const health = await context.proxyHealth();
      if (health.state !== 'down') return { used: true, observed: `something answers ${health.healthUrl}` };
      if (context.proxyMeant()) return { used: true, observed: `the client's ${profile.baseUrlVar} points at ${proxyUrl}` };
      const up = context.upstream();
      if (up.file) return { used: true, observed: `a service definition is installed (${up.file})` };
      if (deps.env.CACHE_FIX_PROXY_UPSTREAM) return { used: true, observed: 'CACHE_FIX_PROXY_UPSTREAM is set in this shell' };
      const bin = resolveCommand(PROXY_BIN, deps.env, deps.cwd);
      if (bin) return { used: true, observed: `${PROXY_BIN} is installed (${bin})` };
      return {
        used: false,
        observed: `not used: nothing answers ${health.healthUrl}, ${PROXY_BIN} is not on PATH, no service definition is installed, CACHE_FIX_PROXY_UPSTREAM is not set and the client does not point at ${proxyUrl}`,
      };
    }),
    direct: once(async () => {
      const token = effective('token').value;
      if (!token) return undefined;
      return fetchModels(deps.http, directUrl, token, requestTimeoutMs);
    }),
    route: once(() => routeFor({ proxyUrl, service, auth: profile.auth, plane: context.plane() }, () => context.proxyHealth())),
    model: once(async () => {
      let list: ModelList | undefined;
      if (needsModelList(profile, deps.env)) {
        const call = await context.direct();
        if (call?.models) list = { ids: call.models };
        else if (call) list = { problem: { cause: 'UPSTREAM_FAULT', observed: `GET ${call.url} did not list models; see direct.request` } };
      }
      return chooseModel({ profile, env: deps.env, list });
    }),
    messages: once(async (): Promise<MessagesCall | { notSent: string }> => {
      if (deps.sendRequest === false) return { notSent: 'not sent (--no-request)' };
      if (!deps.post) return { notSent: 'not sent: no request transport in this run' };
      if (profile.auth !== 'service') return { notSent: `auth path ${profile.auth}: the request checks keys of this service only` };
      const token = effective('token');
      if (!token.value) return { notSent: `no key in ${profile.tokenSources.join(' or ')} to send; see client.credential` };
      const route = await context.route();
      const choice = await context.model();
      const served = (await context.direct())?.models?.filter(isTextModel) ?? [];
      const prefix = profile.ownModelPrefix;
      // With no model chosen the client asks for its own: one of those the service serves stands in,
      // else the client's default, which is what the client itself would send.
      const model = choice.id ?? (prefix ? served.find((id) => id.startsWith(prefix)) : undefined) ?? profile.clientDefaultModel ?? undefined;
      if (!model) return { notSent: `no model known to ask for (${choice.reason}); see direct.request` };
      return sendMessagesProbe(deps.post, { baseUrl: route.baseUrl ?? service.root, route: route.kind, credential: { header: 'bearer', value: token.value }, model, timeoutMs: requestTimeoutMs });
    }),
    protocolCall: once(async (): Promise<ProtocolCall | { notSent: string }> => {
      if (deps.sendRequest === false) return { notSent: 'not sent (--no-request)' };
      if (!deps.post) return { notSent: 'not sent: no request transport in this run' };
      const target = context.target();
      const key = deps.env[target.keyVar];
      if (!key) return { notSent: `no key in ${target.keyVar} to send; see direct.request` };
      // The model list under the client's own base URL (already asked by direct.request) decides.
      const listed = (await context.clientCall())?.models;
      const choice = chooseModel({ profile, env: deps.env, list: listed ? { ids: listed } : undefined });
      const model = choice.id ?? listed?.filter(isTextModel)[0];
      if (!model) return { notSent: `no model known to ask for (${choice.reason}); see direct.request` };
      const protocol = profile.protocol === 'messages' ? 'chat' : profile.protocol;
      return sendProtocolProbe(deps.post, { protocol, root: service.root, key, model, timeoutMs: requestTimeoutMs });
    }),
  };
  return context;
}
