// `gwctl proxy status` as plain data: installation and version (anything but 4.2.1 flagged), the
// service definition (captured upstream, port, debug), the supervisor's view, /health with degraded
// details, the processes on the port and the captured upstream against the auth path.
import { probeProxyHealth, type ProxyHealth } from '../client/proxy-client.ts';
import { serviceAddress } from '../config/service-address.ts';
import { SettingError } from '../config/setting-error.ts';
import { causeEntry } from '../causes/catalogue.ts';
import { outcome } from '../doctor/check-result.ts';
import type { CheckOutcome } from '../doctor/check.ts';
import { createDiagnoseContext } from '../doctor/diagnose-context.ts';
import { proxyUpstream } from '../doctor/checks/proxy-upstream.ts';
import { proxyCommands } from '../doctor/proxy-commands.ts';
import { tildePath } from '../paths.ts';
import { proxyPort } from './client-session.ts';
import { locateInstallation, type ProxyInstallation } from './installation.ts';
import { packageOfScript, profileOf, proxyEnvironmentOf, proxyUrlOf, supervisorOf, type ProxyOperationDeps } from './operation-deps.ts';
import { PINNED_PROXY_VERSION } from './package-spec.ts';
import { portProcesses, type PortReport } from './port-processes.ts';
import type { ProxyCheckResult } from './proxy-causes.ts';
import { readDefinition, type DefinitionFile } from './service-definition.ts';
import { servicePlatform, type SupervisorState } from './supervisor.ts';

export interface ProxyStatusReport {
  schemaVersion: 1;
  /** No check failed (warnings allowed). */
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
  /** Every part as a check, in the one shape of verify and diagnose: {id, status, cause, observed, remedy, commands}. */
  checks: ProxyCheckResult[];
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
    const ctx = createDiagnoseContext({ env: deps.env, cwd: deps.cwd, settings: deps.settings, http: deps.http, platform, probeTimeoutMs: deps.probeTimeoutMs, proxyEnvironment: proxyEnvironmentOf(deps) });
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
  const install = definition?.exists ? definition.kind : 'foreground';
  const root = serviceRoot(deps);
  const restart = install === 'foreground' ? [`${upstream.auth === 'service' && root ? `CACHE_FIX_PROXY_UPSTREAM=${root} ` : ''}cache-fix-proxy server   # in its own terminal`] : proxyCommands.restart(install, root ?? '');
  const checks: ProxyCheckResult[] = [];
  const add = (id: string, result: Omit<ProxyCheckResult, 'id'>) => checks.push({ id, ...result });
  const pass = (observed: string) => ({ status: 'pass' as const, cause: 'OK' as const, observed, remedy: null, commands: [] });
  const skip = (observed: string) => ({ status: 'skip' as const, cause: null, observed, remedy: null, commands: [] });
  const problem = (status: 'fail' | 'warn', cause: ProxyCheckResult['cause'], observed: string, remedy: string, commands: string[]) => ({ status, cause, observed, remedy, commands });

  if (!installation.installed) add('proxy.installed', problem('fail', 'PROXY_NOT_INSTALLED', installation.observed, `Install the pinned version ${PINNED_PROXY_VERSION}.`, ['gwctl proxy install']));
  else if (!installation.pinned) add('proxy.installed', problem('fail', 'PROXY_VERSION_MISMATCH', installation.observed, `Only ${PINNED_PROXY_VERSION} is supported: reinstall it pinned, then restart the proxy from an external terminal.`, ['gwctl proxy upgrade']));
  else if (installation.onPath && installation.onPath.version !== PINNED_PROXY_VERSION) add('proxy.installed', problem('warn', 'PROXY_VERSION_MISMATCH', installation.observed, 'Remove the other copy from PATH or put the npm global bin directory first.', ['type -a cache-fix-proxy']));
  else add('proxy.installed', pass(installation.observed));

  if (!definition) add('proxy.service', skip('no user supervisor for this platform'));
  else if (definition.runs && definition.runs.version !== PINNED_PROXY_VERSION) {
    add('proxy.service', problem('fail', 'PROXY_VERSION_MISMATCH', `the service definition runs ${definition.runs.name}@${definition.runs.version} (${definition.program?.[1]})`, `Regenerate the definition from the ${PINNED_PROXY_VERSION} install.`, ['gwctl proxy service install --force']));
  } else if (!definition.exists && supervisorState.available) {
    add('proxy.service', problem('warn', 'SERVICE_NOT_INSTALLED', `no service definition at ${tildePath(definition.file, deps.env)}`, 'For long-term use, validate in the foreground first, then install the service.', ['cache-fix-proxy server   # validate first', 'gwctl proxy service install']));
  } else if (!supervisorState.available && definition.exists) {
    add('proxy.service', problem('warn', 'SUPERVISOR_UNAVAILABLE', supervisorState.unavailableReason ?? supervisorState.observed, 'The definition exists but nothing here can run it; run the proxy in its own terminal.', ['cache-fix-proxy server']));
  } else add('proxy.service', definition.exists ? pass(`${tildePath(definition.file, deps.env)}; ${supervisorState.observed}`) : skip(`no service definition, and ${supervisorState.unavailableReason ?? supervisorState.observed}`));

  if (definition?.exists && definition.port !== undefined && definition.port !== port.port) {
    add('proxy.service-port', problem('warn', 'SERVICE_PORT_MISMATCH', `the service listens on port ${definition.port}, but proxyUrl is ${proxyUrl}`, 'Make them agree: set proxyUrl, or regenerate the definition with the port.', [`gwctl config set proxyUrl http://127.0.0.1:${definition.port}`, 'gwctl proxy service install --force']));
  }
  if (definition?.debug) {
    add('proxy.debug', problem('warn', 'DEBUG_LOGGING_ON', `the service definition enables debug logging (${definition.debugLog ?? '~/.claude/cache-fix-debug.log'})`, 'Debug logs can hold sensitive context; turn it off when done.', ['gwctl proxy service install --force   # without --debug']));
  }

  if (health.state === 'degraded') {
    add('proxy.running', problem('fail', 'PROXY_DEGRADED', `${health.observed}${health.hint ? `; hint: ${health.hint}` : ''}`, `The request-transform chain is incomplete and must not be used. ${causeEntry('PROXY_DEGRADED').userRemedy}`, [...restart, 'gwctl start   # goes direct meanwhile']));
  } else if (health.state !== 'ok') {
    const managed = definition?.exists && supervisorState.service.enabled === 'enabled';
    add('proxy.running', problem(managed ? 'fail' : 'warn', 'PROXY_DOWN', health.observed, managed ? 'The service is enabled but not answering: restart it and read its log.' : 'The proxy is not running; clients start directly until it is.', restart));
  } else add('proxy.running', pass(health.observed));

  if (port.contested) {
    const managed = supervisorState.service.pid;
    const note = managed && port.processes.some((p) => p.pid === managed) ? `; ${managed} is the supervisor's` : '';
    add('proxy.port', problem('fail', 'PROXY_PORT_CONTESTED', `${port.observed}${note}`, 'Keep one proxy, under the supervisor; stop the unmanaged ones, from a terminal outside any client session that uses the proxy.', port.processes.filter((p) => p.pid !== managed).map((p) => `kill ${p.pid}   # ${p.command.slice(0, 60)}`)));
  } else add('proxy.port', port.method === 'unavailable' ? skip(port.observed) : pass(port.observed));

  add('proxy.upstream', upstream.check);
  return {
    schemaVersion: 1,
    ok: checks.every((c) => c.status !== 'fail'),
    pinnedVersion: PINNED_PROXY_VERSION,
    proxyUrl,
    installation,
    definition,
    supervisor: supervisorState,
    health,
    port,
    upstream,
    checks,
  };
}
