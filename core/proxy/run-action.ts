// Carries out a planned proxy action step by step, streaming output and stopping on abort: npm,
// install-service, supervisor commands (one runner), backups, file removal, the version check after
// installing, /health after a (re)start, and the regression runs when asked for.
import { rmSync } from 'node:fs';
import { probeProxyHealth, type ProxyHealth } from '../client/proxy-client.ts';
import { tildePath } from '../paths.ts';
import { describeRun } from './command-runner.ts';
import { locateInstallation } from './installation.ts';
import { proxyUrlOf, type ProxyOperationDeps } from './operation-deps.ts';
import { PINNED_PROXY_VERSION } from './package-spec.ts';
import type { ActionPlan, Step } from './plan-action.ts';
import type { OperationResult, ProxyActionOptions } from './proxy-action-types.ts';
import type { AnyCauseCode } from './proxy-causes.ts';
import { runRegression } from './regression.ts';
import { backupDefinition, readDefinition, rememberLoaded } from './service-definition.ts';
import { unavailableBecause } from './supervisor.ts';

const DONE: Record<string, string> = {
  install: `proxy ${PINNED_PROXY_VERSION} installed`,
  upgrade: `proxy upgraded to ${PINNED_PROXY_VERSION}`,
  'service-install': 'service definition written and enabled',
  'service-enable': 'service enabled and started',
  'service-restart': 'proxy restarted',
  'service-uninstall': 'service stopped and removed',
};

async function waitHealthy(deps: ProxyOperationDeps, signal?: AbortSignal): Promise<ProxyHealth> {
  const url = proxyUrlOf(deps);
  const deadline = Date.now() + deps.healthWaitMs;
  for (;;) {
    const health = await probeProxyHealth(deps.http, url, deps.probeTimeoutMs);
    if (health.state === 'ok' || Date.now() >= deadline || signal?.aborted) return health;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export async function runAction(deps: ProxyOperationDeps, plan: ActionPlan, options: ProxyActionOptions): Promise<OperationResult> {
  const { change } = plan;
  const result: OperationResult = { ok: false, action: change.action, steps: [], summary: '', exitCode: 1, dryRun: Boolean(options.dryRun), plan: change, backups: [], regression: [], notes: [...change.notes] };
  if (change.refused) {
    return { ...result, summary: `refused: ${change.refused.message}`, cause: change.refused.cause, remedy: change.refused.remedy, commands: change.refused.commands, exitCode: change.refused.exitCode };
  }
  if (options.dryRun) {
    result.steps = plan.steps.map((s) => ({ command: s.shown, exitCode: null, output: 'not run (dry run)' }));
    return { ...result, ok: true, exitCode: 0, summary: `dry run: ${plan.steps.length} step${plan.steps.length === 1 ? '' : 's'} would run; nothing was changed` };
  }
  const emit = (line: string) => options.onOutput?.(line);
  const failWith = (cause: AnyCauseCode, summary: string, remedy: string, commands: string[] = []): OperationResult => ({ ...result, ok: false, exitCode: 1, cause, summary, remedy, commands });

  for (const step of plan.steps) {
    if (options.signal?.aborted) return { ...result, ok: false, exitCode: 130, summary: `interrupted before: ${step.shown}` };
    emit(`$ ${step.shown}`);
    const outcome = await runStep(deps, plan, step, options, result);
    if (outcome === 'aborted') return { ...result, ok: false, exitCode: 130, summary: `interrupted during: ${step.shown}` };
    if (outcome !== undefined) return failWith(outcome.cause, outcome.summary, outcome.remedy, outcome.commands);
  }
  const health = result.health ? ` /health: ${result.health.observed}.` : '';
  return { ...result, ok: true, exitCode: 0, summary: `${DONE[change.action]}.${health}` };
}

type Failure = { cause: AnyCauseCode; summary: string; remedy: string; commands: string[] };

async function runStep(deps: ProxyOperationDeps, plan: ActionPlan, step: Step, options: ProxyActionOptions, result: OperationResult): Promise<Failure | 'aborted' | undefined> {
  const emit = (line: string) => options.onOutput?.(line);
  switch (step.kind) {
    case 'run': {
      const run = await deps.run({ command: step.command, args: step.args, env: step.env ?? deps.env, cwd: deps.cwd, signal: options.signal, onOutput: emit, timeoutMs: step.role === 'npm' ? 600_000 : 120_000 });
      result.steps.push({ command: step.shown, exitCode: run.exitCode, output: run.output.trim() });
      if (run.aborted) return 'aborted';
      if (step.role === 'supervisor' && plan.supervisor) {
        const reason = unavailableBecause(plan.supervisor.kind, run);
        if (reason) return { cause: 'SUPERVISOR_UNAVAILABLE', summary: `${step.shown}: ${reason}`, remedy: 'The definition files are in place, but nothing here can run them as a service.', commands: ['cache-fix-proxy server   # in its own terminal'] };
      }
      if (run.exitCode === 0 || step.optional) return undefined;
      const last = run.output.trim().split('\n').slice(-3).join(' | ');
      const how = `${step.shown} → ${describeRun(run)}${last ? `: ${last}` : ''}`;
      if (step.role === 'npm') return { cause: 'NPM_FAILED', summary: how, remedy: 'Read npm\'s message above; for a registry name check network access and the name, for a tarball the path.', commands: ['npm config get prefix', 'gwctl config get proxy.package'] };
      if (step.role === 'install-service') return { cause: 'INSTALL_SERVICE_FAILED', summary: how, remedy: 'Read the message above; `cache-fix-proxy install-service --help` lists what it needs.', commands: [] };
      return { cause: 'SUPERVISOR_FAILED', summary: how, remedy: plan.supervisor?.kind === 'launchd' ? 'Read launchctl\'s message; `launchctl print gui/$(id -u)/com.cnighswonger.cache-fix-proxy` shows the agent.' : 'Read the message; `systemctl --user status cache-fix-proxy` and `journalctl --user -u cache-fix-proxy -n 50` show why.', commands: plan.supervisor?.kind === 'launchd' ? ['tail -n 50 ~/Library/Logs/cache-fix-proxy.err'] : ['systemctl --user status cache-fix-proxy', 'journalctl --user -u cache-fix-proxy -n 50 --no-pager'] };
    }
    case 'backup': {
      const definition = readDefinition(plan.supervisor!.kind, deps.env);
      const backup = backupDefinition(definition, deps.now());
      if (backup) result.backups.push(backup);
      result.steps.push({ command: step.shown, exitCode: 0, output: backup ? `saved as ${tildePath(backup, deps.env)}` : 'nothing to back up' });
      if (backup) emit(`  saved as ${tildePath(backup, deps.env)}`);
      return undefined;
    }
    case 'remove': {
      for (const file of step.files) rmSync(file, { force: true });
      result.steps.push({ command: step.shown, exitCode: 0, output: 'removed' });
      return undefined;
    }
    case 'verify-version': {
      const installation = await locateInstallation({ env: deps.env, cwd: deps.cwd, run: deps.run, signal: options.signal });
      const found = installation.global ?? installation.active;
      result.installed = found ? { name: found.name, version: found.version, packageDir: found.packageDir } : null;
      const ok = found?.version === PINNED_PROXY_VERSION && (step.expectedName === null || found.name === step.expectedName);
      result.steps.push({ command: step.shown, exitCode: ok ? 0 : 1, output: installation.observed });
      emit(`  ${installation.observed}`);
      if (!ok) return { cause: 'PROXY_VERSION_MISMATCH', summary: `after installing: ${installation.observed}`, remedy: `npm reported success, but the global prefix does not hold ${step.expectedName ?? 'the package'}@${PINNED_PROXY_VERSION}.`, commands: ['npm ls -g --depth 0', 'gwctl proxy status'] };
      if (installation.onPath && installation.onPath.version !== PINNED_PROXY_VERSION) result.notes.push(`PATH still finds another copy first: ${installation.onPath.binPath} (${installation.onPath.version}).`);
      return undefined;
    }
    case 'health': {
      const health = step.required ? await waitHealthy(deps, options.signal) : await probeProxyHealth(deps.http, proxyUrlOf(deps), deps.probeTimeoutMs);
      result.health = health;
      result.steps.push({ command: step.shown, exitCode: health.state === 'ok' ? 0 : 1, output: health.observed });
      emit(`  ${health.observed}`);
      if (options.signal?.aborted) return 'aborted';
      if (health.state === 'ok' || !step.required) return undefined;
      if (health.state === 'degraded') return { cause: 'PROXY_DEGRADED', summary: `the proxy came back degraded: ${health.observed}`, remedy: 'An extension failed to load: read the proxy log, restart once more from an external terminal, and start clients directly while it stays degraded.', commands: ['gwctl proxy status', 'gwctl proxy service restart', 'gwctl start'] };
      return { cause: 'HEALTH_NOT_OK', summary: `no healthy answer within ${deps.healthWaitMs} ms: ${health.observed}`, remedy: 'Read the service log; clients start directly until /health is 200.', commands: plan.supervisor?.kind === 'launchd' ? ['tail -n 50 ~/Library/Logs/cache-fix-proxy.err'] : ['systemctl --user status cache-fix-proxy', 'journalctl --user -u cache-fix-proxy -n 50 --no-pager'] };
    }
    case 'remember': {
      if (plan.supervisor) rememberLoaded(deps.env, readDefinition(plan.supervisor.kind, deps.env), deps.now());
      return undefined;
    }
    case 'regress': {
      const run = await runRegression(deps, step.phase, { signal: options.signal, onOutput: emit });
      result.regression.push(run);
      result.steps.push({ command: `${step.shown} (${step.phase})`, exitCode: run.ok ? 0 : 1, output: run.runs.map((r) => r.observed).join('\n') });
      if (options.signal?.aborted) return 'aborted';
      const before = result.regression.find((r) => r.phase === 'before');
      if (step.phase === 'before' && !run.ok) result.notes.push('The regression run failed already before the change; compare the after-run with it.');
      if (step.phase === 'after' && !run.ok && before?.ok) {
        return { cause: 'CLIENT_FAILED', summary: `the regression run passed before the change and fails after it: ${run.runs.at(-1)!.observed}`, remedy: 'Roll back: restore the backed-up definition (or reinstall), restart, and report the difference.', commands: ['gwctl proxy status', 'gwctl diagnose'] };
      }
      return undefined;
    }
  }
}
