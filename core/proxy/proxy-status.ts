// `gwctl proxy status` as plain data: installation and version (anything but 4.2.1 flagged), the
// service definition (captured upstream, port, debug), the supervisor's view, /health with degraded
// details, the processes on the port and the captured upstream against the auth path.
import { probeProxyHealth, type ProxyHealth } from '../client/proxy-client.ts';
import { serviceAddress } from '../config/service-address.ts';
import { SettingError } from '../config/setting-error.ts';
import { outcome } from '../doctor/check-result.ts';
import type { CheckOutcome } from '../doctor/check.ts';
import { createDiagnoseContext } from '../doctor/diagnose-context.ts';
import { proxyUpstream } from '../doctor/checks/proxy-upstream.ts';
import { proxyCommands } from '../doctor/proxy-commands.ts';
import { tildePath } from '../paths.ts';
import { proxyPort } from './client-session.ts';
import { locateInstallation, type ProxyInstallation } from './installation.ts';
import { packageOfScript, profileOf, proxyUrlOf, supervisorOf, type ProxyOperationDeps } from './operation-deps.ts';
import { PINNED_PROXY_VERSION } from './package-spec.ts';
import { portProcesses, type PortReport } from './port-processes.ts';
import type { AnyCauseCode } from './proxy-causes.ts';
import { readDefinition, type DefinitionFile } from './service-definition.ts';
import { servicePlatform, type SupervisorState } from './supervisor.ts';

export interface StatusFinding {
  severity: 'fail' | 'warn';
  cause: AnyCauseCode;
  message: string;
  remedy: string;
  commands: string[];
}

export interface ProxyStatusReport {
  schemaVersion: 1;
  /** No finding of severity fail. */
  ok: boolean;
  pinnedVersion: string;
  proxyUrl: string;
  installation: ProxyInstallation;
  /** Null where no user supervisor exists for this platform. */
  definition: (DefinitionFile & { runs: { name: string; version: string; packageDir: string } | null }) | null;
  supervisor: SupervisorState;
  health: ProxyHealth;
  port: PortReport;
  upstream: { auth: string; check: CheckOutcome };
  findings: StatusFinding[];
}

function serviceRoot(deps: ProxyOperationDeps): string | undefined {
  try {
    return serviceAddress(deps.settings).root;
  } catch {
    return undefined;
  }
}

function upstreamCheck(deps: ProxyOperationDeps): Promise<CheckOutcome> | CheckOutcome {
  const platform = servicePlatform(deps.env, deps.platform) === 'darwin' ? 'darwin' : 'linux';
  try {
    const ctx = createDiagnoseContext({ env: deps.env, cwd: deps.cwd, settings: deps.settings, http: deps.http, platform, probeTimeoutMs: deps.probeTimeoutMs });
    return proxyUpstream.run(ctx, []);
  } catch (error) {
    if (!(error instanceof SettingError)) throw error;
    const auth = profileOf(deps).auth;
    if (auth === 'service') return outcome.skip(`baseUrl is not set, so the upstream a key of this service needs is unknown (${error.remedy})`);
    return outcome.skip(`baseUrl is not set; for auth path ${auth} the upstream should stay at its default`);
  }
}

export async function proxyStatus(deps: ProxyOperationDeps): Promise<ProxyStatusReport> {
  const proxyUrl = proxyUrlOf(deps);
  const supervisor = supervisorOf(deps);
  const [installation, health, supervisorState] = await Promise.all([
    locateInstallation(deps),
    probeProxyHealth(deps.http, proxyUrl, deps.probeTimeoutMs),
    supervisor
      ? supervisor.query(deps.run, deps.env)
      : Promise.resolve<SupervisorState>({
          kind: null,
          available: false,
          unavailableReason: `no user supervisor is supported on ${servicePlatform(deps.env, deps.platform)} (systemd on Linux/WSL, launchd on macOS); run \`cache-fix-proxy server\` under your own`,
          service: { enabled: 'unknown', active: 'unknown' },
          observed: 'no user supervisor for this platform',
        }),
  ]);
  const definitionFile = supervisor ? readDefinition(supervisor.kind, deps.env) : null;
  const definition = definitionFile ? { ...definitionFile, runs: packageOfScript(definitionFile.program?.[1]) } : null;
  const port = await portProcesses(proxyPort(proxyUrl), { platform: deps.platform, procRoot: deps.procRoot, run: deps.run, env: deps.env });
  const upstream = { auth: profileOf(deps).auth, check: await upstreamCheck(deps) };
  const findings: StatusFinding[] = [];
  const install = definition?.exists ? definition.kind : 'foreground';
  const root = serviceRoot(deps);
  const restart = install === 'foreground' ? [`${upstream.auth === 'service' && root ? `CACHE_FIX_PROXY_UPSTREAM=${root} ` : ''}cache-fix-proxy server   # in its own terminal`] : proxyCommands.restart(install, root ?? '');

  if (!installation.installed) {
    findings.push({ severity: 'fail', cause: 'PROXY_NOT_INSTALLED', message: installation.observed, remedy: `Install the pinned version ${PINNED_PROXY_VERSION}.`, commands: ['gwctl proxy install'] });
  } else if (!installation.pinned) {
    findings.push({ severity: 'fail', cause: 'PROXY_VERSION_MISMATCH', message: installation.observed, remedy: `Only ${PINNED_PROXY_VERSION} is supported: reinstall it pinned, then restart the proxy from an external terminal.`, commands: ['gwctl proxy upgrade'] });
  } else if (installation.onPath && installation.onPath.version !== PINNED_PROXY_VERSION) {
    findings.push({ severity: 'warn', cause: 'PROXY_VERSION_MISMATCH', message: installation.observed, remedy: 'Remove the other copy from PATH or put the npm global bin directory first.', commands: [`type -a cache-fix-proxy`] });
  }
  if (definition?.runs && definition.runs.version !== PINNED_PROXY_VERSION) {
    findings.push({ severity: 'fail', cause: 'PROXY_VERSION_MISMATCH', message: `the service definition runs ${definition.runs.name}@${definition.runs.version} (${definition.program?.[1]})`, remedy: `Regenerate the definition from the ${PINNED_PROXY_VERSION} install.`, commands: ['gwctl proxy service install --force'] });
  }
  if (definition && !definition.exists && supervisorState.available) {
    findings.push({ severity: 'warn', cause: 'SERVICE_NOT_INSTALLED', message: `no service definition at ${tildePath(definition.file, deps.env)}`, remedy: 'For long-term use, validate in the foreground first, then install the service.', commands: ['cache-fix-proxy server   # validate first', 'gwctl proxy service install'] });
  }
  if (!supervisorState.available && definition?.exists) {
    findings.push({ severity: 'warn', cause: 'SUPERVISOR_UNAVAILABLE', message: supervisorState.unavailableReason ?? supervisorState.observed, remedy: 'The definition exists but nothing here can run it; run the proxy in its own terminal.', commands: ['cache-fix-proxy server'] });
  }
  if (definition?.exists && definition.port !== undefined && definition.port !== port.port) {
    findings.push({ severity: 'warn', cause: 'SERVICE_PORT_MISMATCH', message: `the service listens on port ${definition.port}, but proxyUrl is ${proxyUrl}`, remedy: 'Make them agree: set proxyUrl, or regenerate the definition with the port.', commands: [`gwctl config set proxyUrl http://127.0.0.1:${definition.port}`, 'gwctl proxy service install --force'] });
  }
  if (definition?.debug) {
    findings.push({ severity: 'warn', cause: 'DEBUG_LOGGING_ON', message: `the service definition enables debug logging (${definition.debugLog ?? '~/.claude/cache-fix-debug.log'})`, remedy: 'Debug logs can hold sensitive context; turn it off when done.', commands: ['gwctl proxy service install --force   # without --debug'] });
  }
  if (health.state === 'degraded') {
    findings.push({ severity: 'fail', cause: 'PROXY_DEGRADED', message: `${health.observed}${health.hint ? `; hint: ${health.hint}` : ''}`, remedy: 'The request-transform chain is incomplete and must not be used: restart the proxy from an external terminal; if it stays degraded start clients directly.', commands: [...restart, 'gwctl start   # goes direct meanwhile'] });
  } else if (health.state !== 'ok') {
    const managed = definition?.exists && supervisorState.service.enabled === 'enabled';
    findings.push({ severity: managed ? 'fail' : 'warn', cause: 'PROXY_DOWN', message: health.observed, remedy: managed ? 'The service is enabled but not answering: restart it and read its log.' : 'The proxy is not running; clients start directly until it is.', commands: restart });
  }
  if (port.contested) {
    const managed = supervisorState.service.pid;
    const note = managed && port.processes.some((p) => p.pid === managed) ? `; ${managed} is the supervisor's` : '';
    findings.push({ severity: 'fail', cause: 'PROXY_PORT_CONTESTED', message: `${port.observed}${note}`, remedy: 'Keep one proxy, under the supervisor; stop the unmanaged ones, from a terminal outside any client session that uses the proxy.', commands: port.processes.filter((p) => p.pid !== managed).map((p) => `kill ${p.pid}   # ${p.command.slice(0, 60)}`) });
  }
  const up = upstream.check;
  if (up.status === 'fail' || up.status === 'warn') findings.push({ severity: up.status, cause: up.cause!, message: up.observed, remedy: up.remedy ?? '', commands: up.commands });
  return {
    schemaVersion: 1,
    ok: findings.every((f) => f.severity !== 'fail'),
    pinnedVersion: PINNED_PROXY_VERSION,
    proxyUrl,
    installation,
    definition,
    supervisor: supervisorState,
    health,
    port,
    upstream,
    findings,
  };
}
