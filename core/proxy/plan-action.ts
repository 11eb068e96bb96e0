// What an action would do, before anything is done: refusals (inside a client session, version pin, unconfirmed debug, a missing
// definition), the commands in order, backups, the install-service environment by auth path, and
// the regression reminder for changes that alter request bodies. run-action.ts carries a plan out.
import { serviceAddress } from '../config/service-address.ts';
import { SettingError } from '../config/setting-error.ts';
import { proxyDebugLog, proxyHealthcheckFiles, tildePath } from '../paths.ts';
import { detectClientSession, proxyPort, sessionRefusal } from './client-session.ts';
import { commandLine } from './command-runner.ts';
import { ONE_WORD_PROMPT } from './client-run.ts';
import { expectedUpstream } from './expected-upstream.ts';
import { InstallTargetError, resolveInstallTarget, type InstallTarget } from './install-target.ts';
import { locateInstallation } from './installation.ts';
import { profileOf, proxyUrlOf, supervisorOf, type ProxyOperationDeps } from './operation-deps.ts';
import { PINNED_PROXY_VERSION, PROXY_BIN } from './package-spec.ts';
import type { BodyAlteringNotice, PlannedChange, ProxyAction, ProxyActionOptions, Refusal } from './proxy-action-types.ts';
import { bodyAlteringIn, definitionChanged, readDefinition } from './service-definition.ts';
import { display, type Supervisor, type SupervisorCommand } from './supervisor.ts';

export type Step =
  | { kind: 'run'; role: 'npm' | 'install-service' | 'supervisor'; command: string; args: string[]; env?: NodeJS.ProcessEnv; shown: string; purpose: string; optional?: boolean }
  | { kind: 'backup'; file: string; shown: string; purpose: string }
  | { kind: 'remove'; files: string[]; shown: string; purpose: string }
  | { kind: 'verify-version'; expectedName: string | null; shown: string; purpose: string }
  | { kind: 'health'; required: boolean; shown: string; purpose: string }
  | { kind: 'remember'; shown: string; purpose: string }
  | { kind: 'regress'; phase: 'before' | 'after'; shown: string; purpose: string };

export interface ActionPlan {
  change: PlannedChange;
  steps: Step[];
  supervisor: Supervisor | null;
}

const NPM_FLAGS = ['install', '-g', '--no-audit', '--no-fund'];

function supervisorSteps(commands: SupervisorCommand[], purpose: string): Step[] {
  return commands.map((c, i) => ({ kind: 'run', role: 'supervisor', command: c.command, args: c.args, shown: display([c])[0]!, purpose: i === 0 ? purpose : '', optional: c.optional }));
}

function reminder(deps: ProxyOperationDeps, reasons: string[], action: ProxyAction): BodyAlteringNotice {
  const profile = profileOf(deps);
  const printFlag = deps.settings['client.printFlag'].value as string;
  const resumeFlag = deps.settings['client.resumeFlag'].value as string;
  const base = `${profile.baseUrlVar}=${proxyUrlOf(deps)}`;
  const flag = action === 'upgrade' ? 'gwctl proxy upgrade --regress' : action === 'service-restart' ? 'gwctl proxy service restart --regress' : 'gwctl proxy service install --force --regress';
  return {
    reasons,
    reminder: `This change alters request bodies. Spec 9.4: run a short session and a resume run through the proxy before and after it, and compare. \`${flag}\` runs both around the change; by hand, in a scratch directory, before and after:`,
    commands: [`${base} ${commandLine(profile.command, [printFlag, ONE_WORD_PROMPT])}`, `${base} ${commandLine(profile.command, [resumeFlag, printFlag, ONE_WORD_PROMPT])}`],
  };
}

function emptyChange(action: ProxyAction): PlannedChange {
  return { schemaVersion: 1, action, refused: null, commands: [], steps: [], backups: [], filesWritten: [], filesRemoved: [], environment: {}, bodyAltering: null, warnings: [], notes: [] };
}

export async function planAction(deps: ProxyOperationDeps, action: ProxyAction, options: ProxyActionOptions = {}): Promise<ActionPlan> {
  const change = emptyChange(action);
  const steps: Step[] = [];
  const profile = profileOf(deps);
  const proxyUrl = proxyUrlOf(deps);
  const supervisor = supervisorOf(deps);
  const definition = supervisor ? readDefinition(supervisor.kind, deps.env) : null;
  const session = detectClientSession(deps.env, profile.baseUrlVar, proxyUrl);
  const refuse = (refusal: Refusal): ActionPlan => {
    change.refused = refusal;
    return { change, steps: [], supervisor };
  };
  const gwctlCommand = `gwctl proxy ${action.replace('service-', 'service ')}`;
  const rule5 = (what: string) => {
    const r = sessionRefusal(session, what, gwctlCommand);
    return refuse({ cause: 'IN_CLIENT_SESSION', ...r, exitCode: 1 });
  };
  const noSupervisor = (): ActionPlan =>
    refuse({ cause: 'SUPERVISOR_UNAVAILABLE', message: `No user supervisor is supported on ${deps.platform} (systemd user units on Linux/WSL, launchd on macOS).`, remedy: 'Run the proxy in its own terminal, under a supervisor of your own.', commands: [`${PROXY_BIN} server`], exitCode: 1 });
  const notInstalled = (): ActionPlan =>
    refuse({
      cause: 'SERVICE_NOT_INSTALLED',
      message: `No service definition at ${tildePath(definition!.file, deps.env)}. Enabling without \`install-service\` fails: ${supervisor!.kind === 'systemd' ? 'systemctl answers "Unit cache-fix-proxy.service not found"' : 'launchctl cannot find the property-list file'}.`,
      remedy: 'Validate the proxy in the foreground first, then install the service definition (it is enabled in the same step).',
      commands: [`${PROXY_BIN} server   # validate first, in its own terminal`, 'gwctl proxy service install'],
      exitCode: 1,
    });

  if (action === 'install' || action === 'upgrade') {
    let target: InstallTarget;
    const value = options.package ?? (deps.settings['proxy.package'].value as string);
    const source = options.package ? 'the command line' : deps.settings['proxy.package'].origin ? `proxy.package from ${deps.settings['proxy.package'].origin}` : 'the default proxy.package';
    try {
      target = resolveInstallTarget(value, source, deps.env, deps.cwd);
    } catch (error) {
      if (!(error instanceof InstallTargetError)) throw error;
      return refuse({ cause: error.code, message: error.message, remedy: error.remedy, commands: [`gwctl config set proxy.package cache-fix-proxy   # or a ${PINNED_PROXY_VERSION} .tgz`], exitCode: 2 });
    }
    if (action === 'upgrade' && session.inSession) return rule5('upgrade the proxy');
    const upgrade = action === 'upgrade';
    const restarts = upgrade && Boolean(definition?.exists && supervisor);
    if (upgrade) {
      change.bodyAltering = reminder(deps, [`an upgrade replaces the proxy's code; request-body defaults (thinking sanitize v1 is on in ${PINNED_PROXY_VERSION}) may differ from what runs now`], action);
      if (definition?.exists) steps.push({ kind: 'backup', file: definition.file, shown: `back up ${tildePath(definition.file, deps.env)}`, purpose: 'keep the definition as it was before the change' });
      if (options.regress) steps.push({ kind: 'regress', phase: 'before', shown: 'short session + resume run through the proxy', purpose: 'the before-run of the regression check' });
    }
    steps.push({ kind: 'run', role: 'npm', command: 'npm', args: [...NPM_FLAGS, target.argument], env: deps.env, shown: commandLine('npm', [...NPM_FLAGS, target.argument]), purpose: `install exactly ${PINNED_PROXY_VERSION}` });
    steps.push({ kind: 'verify-version', expectedName: target.name, shown: `check the installed version is ${PINNED_PROXY_VERSION}`, purpose: 'verify after installing' });
    if (restarts) {
      steps.push(...supervisorSteps(supervisor!.restart(definitionChanged(deps.env, definition!)), 'restart at supervisor level: hot reload is off, a running process keeps the old code'));
      steps.push({ kind: 'health', required: true, shown: `GET ${proxyUrl}/health until 200 {"status":"ok"}`, purpose: 'check the restarted proxy' });
      steps.push({ kind: 'remember', shown: 'remember the loaded definition', purpose: '' });
    } else if (upgrade) {
      steps.push({ kind: 'health', required: false, shown: `GET ${proxyUrl}/health`, purpose: 'report what runs now' });
      change.notes.push(`No service definition${supervisor ? '' : ' (no user supervisor here)'}: a proxy started by hand keeps running the old code until you stop it and start \`${PROXY_BIN} server\` again in its own terminal (hot reload is off).`);
    }
    if (upgrade && options.regress) steps.push({ kind: 'regress', phase: 'after', shown: 'short session + resume run through the proxy', purpose: 'the after-run of the regression check' });
    if (!upgrade && definition?.exists) change.notes.push('A running service keeps its old code until restarted (hot reload is off): `gwctl proxy service restart` from an external terminal.');
    return finish(change, steps, supervisor);
  }

  if (!supervisor) return noSupervisor();
  const def = definition!;

  if (action === 'service-install') {
    if (options.debug && !options.confirmDebug) {
      return refuse({
        cause: 'DEBUG_NOT_CONFIRMED',
        message: `Debug logging writes a line per request to ${tildePath(def.debugLog ?? proxyDebugLog(deps.env), deps.env)}: method, path, status, timings, session id and header values (authorization, x-api-key, cookie and proxy-authorization are redacted; others such as user-agent are written as sent). Turn it on only after confirming that this context may be logged.`,
        remedy: 'Confirm explicitly, and turn it off again when done (install --force without --debug).',
        commands: ['gwctl proxy service install --force --debug --confirm-debug'],
        exitCode: 2,
      });
    }
    if (def.exists && !options.force) {
      return refuse({ cause: 'SERVICE_ALREADY_INSTALLED', message: `A service definition exists: ${tildePath(def.file, deps.env)}.`, remedy: 'Regenerate it with --force (the current one is backed up first), or just enable it.', commands: ['gwctl proxy service install --force', 'gwctl proxy service enable'], exitCode: 1 });
    }
    const replacing = def.exists && Boolean(options.force);
    if (replacing && session.inSession) return rule5('regenerate and restart the proxy service');
    const installation = await locateInstallation({ env: deps.env, cwd: deps.cwd, run: deps.run, signal: options.signal });
    const active = installation.active;
    if (!active?.binPath) return refuse({ cause: 'PROXY_NOT_INSTALLED', message: `The proxy is not installed: ${installation.observed}.`, remedy: `Install ${PINNED_PROXY_VERSION} first; the definition runs the installed program.`, commands: ['gwctl proxy install'], exitCode: 1 });
    if (!installation.pinned) return refuse({ cause: 'PROXY_VERSION_MISMATCH', message: `The installed proxy is ${active.name}@${active.version}; a service definition would run it.`, remedy: `Install ${PINNED_PROXY_VERSION} first.`, commands: ['gwctl proxy upgrade'], exitCode: 1 });
    let upstream;
    try {
      upstream = expectedUpstream(profile.auth, profile.auth === 'service' ? serviceAddress(deps.settings).root : undefined);
    } catch (error) {
      if (!(error instanceof SettingError)) throw error;
      return refuse({ cause: 'PROXY_UPSTREAM_DEFAULT', message: `${error.message} A key of this service needs CACHE_FIX_PROXY_UPSTREAM={base_url} in the definition; the step must not be omitted.`, remedy: error.remedy, commands: ['gwctl config set baseUrl https://gateway.example.com'], exitCode: 2 });
    }
    const env: NodeJS.ProcessEnv = { ...deps.env, CACHE_FIX_PROXY_PORT: String(proxyPort(proxyUrl)) };
    for (const name of ['CACHE_FIX_DEBUG', 'CACHE_FIX_DEBUG_LOG', 'CACHE_FIX_PROXY_UPSTREAM']) delete env[name];
    if (upstream.value) env.CACHE_FIX_PROXY_UPSTREAM = upstream.value;
    if (options.debug) env.CACHE_FIX_DEBUG = '1';
    change.environment = { CACHE_FIX_PROXY_UPSTREAM: upstream.value ?? null, CACHE_FIX_PROXY_PORT: env.CACHE_FIX_PROXY_PORT!, CACHE_FIX_DEBUG: options.debug ? '1' : null };
    change.notes.push(`CACHE_FIX_PROXY_UPSTREAM ${upstream.value ? `= ${upstream.value}` : 'left unset'}: auth path ${profile.auth}, ${upstream.why}.`);
    const shellUpstream = deps.env.CACHE_FIX_PROXY_UPSTREAM;
    if (shellUpstream && shellUpstream !== upstream.value) change.warnings.push(`This shell has CACHE_FIX_PROXY_UPSTREAM=${shellUpstream}; the service gets ${upstream.value ?? 'the default'} instead, as the auth path requires. For another relay, check it first: gwctl proxy upstream check ${shellUpstream}`);
    if (deps.env.CACHE_FIX_DEBUG && !options.debug) change.warnings.push('CACHE_FIX_DEBUG is set in this shell but is not carried into the service (--debug --confirm-debug turns it on deliberately).');
    const shellBody = bodyAlteringIn(deps.env);
    if (shellBody.length) change.warnings.push(`This shell turns on ${shellBody.join(', ')}; install-service does not carry ${shellBody.length === 1 ? 'it' : 'them'} into the definition.`);
    if (profile.auth === 'oauth' && deps.env.CACHE_FIX_OAUTH_REFRESH === 'on') change.warnings.push('CACHE_FIX_OAUTH_REFRESH=on in this shell: for a subscription login it stays off.');
    if (replacing) {
      steps.push({ kind: 'backup', file: def.file, shown: `back up ${tildePath(def.file, deps.env)}`, purpose: 'keep the definition it replaces' });
      if (def.bodyAltering.length) change.bodyAltering = reminder(deps, [`the current definition turns on ${def.bodyAltering.join(', ')}, which install-service does not carry over: request bodies change when the service restarts`], action);
    }
    if (options.regress && replacing) steps.push({ kind: 'regress', phase: 'before', shown: 'short session + resume run through the proxy', purpose: 'the before-run of the regression check' });
    const args = ['install-service', ...(options.force ? ['--force'] : [])];
    const assignments = Object.entries(change.environment).filter(([, v]) => v !== null).map(([k, v]) => commandLine(`${k}=${v}`, []));
    const shown = `${upstream.value ? '' : 'env -u CACHE_FIX_PROXY_UPSTREAM '}${assignments.join(' ')} ${commandLine(active.binPath, args)}`;
    steps.push({ kind: 'run', role: 'install-service', command: active.binPath, args, env, shown, purpose: 'write the service definition with the values above' });
    change.filesWritten.push(def.file, ...(supervisor.kind === 'systemd' ? Object.values(proxyHealthcheckFiles(deps.env)) : []));
    if (replacing && supervisor.kind === 'launchd') steps.push(...supervisorSteps(supervisor.restart(true), 'unload the old definition and load the new one'));
    else {
      steps.push(...supervisorSteps(supervisor.enable(), 'enable and start now and at login'));
      if (replacing) steps.push(...supervisorSteps(supervisor.restart(false), 'the running proxy picks the regenerated definition up only when restarted'));
    }
    steps.push({ kind: 'health', required: true, shown: `GET ${proxyUrl}/health until 200 {"status":"ok"}`, purpose: 'check the service answers' });
    steps.push({ kind: 'remember', shown: 'remember the loaded definition', purpose: '' });
    if (options.regress && replacing) steps.push({ kind: 'regress', phase: 'after', shown: 'short session + resume run through the proxy', purpose: 'the after-run of the regression check' });
    return finish(change, steps, supervisor);
  }

  if (action === 'service-enable') {
    if (!def.exists) return notInstalled();
    steps.push(...supervisorSteps(supervisor.enable(), 'enable and start now and at login'));
    steps.push({ kind: 'health', required: true, shown: `GET ${proxyUrl}/health until 200 {"status":"ok"}`, purpose: 'check the service answers' });
    steps.push({ kind: 'remember', shown: 'remember the loaded definition', purpose: '' });
    return finish(change, steps, supervisor);
  }

  if (action === 'service-restart') {
    if (!def.exists) return notInstalled();
    if (session.inSession) return rule5('restart the proxy');
    const changed = definitionChanged(deps.env, def);
    if (changed && def.bodyAltering.length) {
      change.bodyAltering = reminder(deps, [`the definition turns on ${def.bodyAltering.join(', ')}, which the restart makes effective`], action);
      steps.push({ kind: 'backup', file: def.file, shown: `back up ${tildePath(def.file, deps.env)}`, purpose: 'keep the definition before an advanced change' });
    }
    if (options.regress) steps.push({ kind: 'regress', phase: 'before', shown: 'short session + resume run through the proxy', purpose: 'the before-run of the regression check' });
    steps.push(...supervisorSteps(supervisor.restart(changed), changed ? 'the definition changed since it was loaded: reload it, then restart' : 'restart at supervisor level'));
    steps.push({ kind: 'health', required: true, shown: `GET ${proxyUrl}/health until 200 {"status":"ok"}`, purpose: 'check the restarted proxy' });
    steps.push({ kind: 'remember', shown: 'remember the loaded definition', purpose: '' });
    if (options.regress) steps.push({ kind: 'regress', phase: 'after', shown: 'short session + resume run through the proxy', purpose: 'the after-run of the regression check' });
    return finish(change, steps, supervisor);
  }

  // service-uninstall
  if (!def.exists) return refuse({ cause: 'SERVICE_NOT_INSTALLED', message: `No service definition at ${tildePath(def.file, deps.env)}: nothing to remove.`, remedy: 'Nothing to do.', commands: ['gwctl proxy status'], exitCode: 1 });
  if (session.inSession) return rule5('stop and remove the proxy service');
  const files = [def.file, ...(supervisor.kind === 'systemd' ? Object.values(proxyHealthcheckFiles(deps.env)) : [])];
  steps.push({ kind: 'backup', file: def.file, shown: `back up ${tildePath(def.file, deps.env)}`, purpose: 'keep the definition it removes' });
  steps.push(...supervisorSteps(supervisor.stop(), 'stop and disable'));
  steps.push({ kind: 'remove', files, shown: `remove ${files.map((f) => tildePath(f, deps.env)).join(', ')}`, purpose: 'delete the definition files' });
  steps.push(...supervisorSteps(supervisor.afterRemoval(), 'forget the removed units'));
  change.filesRemoved.push(...files);
  return finish(change, steps, supervisor);
}

function finish(change: PlannedChange, steps: Step[], supervisor: Supervisor | null): ActionPlan {
  change.commands = steps.filter((s) => s.kind === 'run').map((s) => s.shown);
  change.steps = steps.map((s) => ({ kind: s.kind, shown: s.shown, purpose: s.purpose }));
  change.backups = steps.filter((s): s is Extract<Step, { kind: 'backup' }> => s.kind === 'backup').map((s) => s.file);
  return { change, steps, supervisor };
}
