// Three-layer acceptance of the proxy: proxy_running (GET /health 200 ok), claude_routed (a new
// client session with a one-word request gets a normal reply and the proxy's observation moves),
// cache_observed (a quota-status file appeared or was updated by that session). A failing layer runs
// the diagnosis with the client's environment, including one short real request through the proxy,
// and names its verdict: what actually failed (status, who answered, the message), so a request
// the service or its upstream refused is never blamed on the proxy's upstream setting.
import { probeProxyHealth } from '../client/proxy-client.ts';
import { SettingError } from '../config/setting-error.ts';
import { outcome } from '../doctor/check-result.ts';
import { DIAGNOSE_STATUSES } from '../doctor/diagnose-checks.ts';
import { runDiagnosis, type DiagnosisReport } from '../doctor/run-diagnosis.ts';
import { GENERIC_CAUSE_BY_STATUS } from '../doctor/status-causes.ts';
import { quotaStatusDir, tildePath } from '../paths.ts';
import { proxyRouteEnv, runClient } from './client-run.ts';
import { undiciPost } from './http-post.ts';
import { profileOf, proxyEnvironmentOf, proxyUrlOf, supervisorOf, type ProxyOperationDeps } from './operation-deps.ts';
import { changedSince, describeFile, observationFiles, quotaStatusWritable, snapshot } from './observations.ts';
import type { AcceptanceLayer, AnyCauseCode, CheckReport, ProxyCheckResult } from './proxy-causes.ts';
import { readDefinition } from './service-definition.ts';
import { servicePlatform } from './supervisor.ts';

export interface AcceptanceOptions {
  onProgress?: (checkId: string) => void;
  signal?: AbortSignal;
}


async function diagnose(deps: ProxyOperationDeps, status: number | undefined): Promise<DiagnosisReport | null> {
  const platform = servicePlatform(deps.env, deps.platform) === 'darwin' ? 'darwin' : 'linux';
  try {
    return await runDiagnosis({
      env: proxyRouteEnv(deps),
      cwd: deps.cwd,
      settings: deps.settings,
      http: deps.http,
      platform,
      procVersion: deps.procVersion,
      probeTimeoutMs: deps.probeTimeoutMs,
      proxyEnvironment: proxyEnvironmentOf(deps),
      // The short real request through the proxy shows who answers it, and what.
      post: undiciPost,
      status: status !== undefined && DIAGNOSE_STATUSES.includes(status) ? status : undefined,
    });
  } catch (error) {
    if (error instanceof SettingError) return null;
    throw error;
  }
}

/** The check that names the diagnosis' root cause (its verdict), when one failed. */
function firstFailure(report: DiagnosisReport | null): DiagnosisReport['checks'][number] | undefined {
  if (!report) return undefined;
  return report.checks.find((c) => c.id === report.verdict.check) ?? report.checks.find((c) => c.status === 'fail');
}

/** The layer outcome when it failed: the diagnosis' first failure explains it, else the layer's own cause. */
type LayerOutcome = Omit<ProxyCheckResult, 'id'>;

function fail(cause: AnyCauseCode, observed: string, remedy: string, commands: string[]): LayerOutcome {
  return { status: 'fail', cause, observed, remedy, commands };
}

function explained(own: LayerOutcome, report: DiagnosisReport | null, preferOwn = false): LayerOutcome {
  const found = preferOwn ? undefined : firstFailure(report);
  if (!found) {
    const works = report?.checks.find((c) => c.id === 'messages.request' && c.status === 'pass');
    const note = works ? `; the same short request sent by gwctl through the proxy gets a normal answer (${works.observed}), so the failure lies in what the client sent: see its own message` : report ? '; diagnosis found no other cause' : '';
    return { ...own, observed: `${own.observed}${note}` };
  }
  return {
    status: 'fail',
    cause: found.cause,
    observed: `${own.observed}; diagnosis: ${found.id} ${found.cause}: ${found.observed}`,
    remedy: found.remedy,
    commands: found.commands,
  };
}

export async function runAcceptance(deps: ProxyOperationDeps, options: AcceptanceOptions = {}): Promise<CheckReport> {
  const checks: ProxyCheckResult[] = [];
  const layers: AcceptanceLayer[] = [];
  const proxyUrl = proxyUrlOf(deps);
  const profile = profileOf(deps);
  const supervisor = supervisorOf(deps);
  const definition = supervisor ? readDefinition(supervisor.kind, deps.env) : null;
  const push = (id: AcceptanceLayer['id'], result: Omit<ProxyCheckResult, 'id'>, evidence: string[], diagnosis: DiagnosisReport | null) => {
    checks.push({ id, ...result });
    layers.push({ id, evidence, diagnosis });
  };

  // Layer 1: proxy_running.
  options.onProgress?.('proxy_running');
  const health = await probeProxyHealth(deps.http, proxyUrl, deps.probeTimeoutMs);
  if (health.state === 'ok') {
    push('proxy_running', outcome.pass(`${health.observed}`), [health.observed], null);
  } else {
    const diagnosis = await diagnose(deps, health.state === 'degraded' ? 503 : undefined);
    const cause = health.state === 'degraded' ? 'PROXY_DEGRADED' : 'PROXY_DOWN';
    const own = fail(cause, health.observed, health.state === 'degraded' ? 'Restart the proxy from an external terminal; if it stays degraded, start clients directly.' : 'Start the proxy (gwctl proxy service enable, or `cache-fix-proxy server` in its own terminal) and confirm /health is 200.', ['gwctl proxy status']);
    push('proxy_running', explained(own, diagnosis), [health.observed], diagnosis);
  }
  const layer1 = checks[0]!.status === 'pass';

  // Layer 2: claude_routed.
  options.onProgress?.('claude_routed');
  const before = snapshot(observationFiles(deps.env, definition?.debugLog));
  let updated: ReturnType<typeof changedSince> = [];
  let routedOk = false;
  if (!layer1) {
    push('claude_routed', outcome.skip('not run: the proxy is not healthy (proxy_running), so no session is sent through it'), [], null);
  } else {
    const run = await runClient(deps, { signal: options.signal });
    const evidence = [run.observed];
    if (run.notFound) {
      push('claude_routed', fail('CLIENT_FAILED', run.observed, 'Install the client, or name it.', [`gwctl config set client.command /path/to/${profile.command}`]), evidence, null);
    } else if (!run.ok) {
      const diagnosis = run.aborted ? null : await diagnose(deps, run.status);
      const cause: AnyCauseCode = (run.status !== undefined ? GENERIC_CAUSE_BY_STATUS[run.status] : undefined) ?? 'CLIENT_FAILED';
      const own = fail(cause, run.observed, `The short request through the proxy did not get a normal reply; follow the diagnosis: \`gwctl diagnose${run.status ? ` --status ${run.status}` : ''}\`.`, [`gwctl diagnose${run.status ? ` --status ${run.status}` : ''}`]);
      push('claude_routed', explained(own, diagnosis), evidence, diagnosis);
    } else {
      updated = await waitForChange(deps, before, definition?.debugLog, options.signal);
      const shown = updated.map((f) => describeFile(f, deps.env));
      evidence.push(...shown.map((s) => `updated: ${s}`));
      if (updated.length > 0) {
        routedOk = true;
        push('claude_routed', outcome.pass(`${run.observed}; proxy observation updated: ${shown.join(', ')}`), evidence, null);
      } else {
        const writable = quotaStatusWritable(deps.env);
        const diagnosis = await diagnose(deps, undefined);
        evidence.push(writable.observed);
        if (!writable.writable && !firstFailure(diagnosis)) {
          routedOk = true;
          push(
            'claude_routed',
            { status: 'warn', cause: 'TELEMETRY_UNWRITABLE', observed: `${run.observed}; the client was pointed at the proxy, but the proxy could record no observation: ${writable.observed}`, remedy: 'See cache_observed: make ~/.claude/quota-status/ a writable directory.', commands: [] },
            evidence,
            diagnosis,
          );
        } else {
          const own = fail('BASE_URL_NOT_PROXY', `${run.observed}, but no proxy observation moved within ${deps.observationWaitMs} ms: the reply did not come through the proxy`, 'Something overrides the base address the client was given (a settings file pins it, or the client ignores the variable); see the diagnosis.', ['gwctl diagnose']);
          push('claude_routed', explained(own, diagnosis), evidence, diagnosis);
        }
      }
    }
  }

  // Layer 3: cache_observed.
  options.onProgress?.('cache_observed');
  if (!routedOk) {
    push('cache_observed', outcome.skip('not run: no session went through the proxy (claude_routed)'), [], null);
  } else {
    const quota = updated.filter((f) => f.kind === 'account' || f.kind === 'session');
    // Layer 2 stopped waiting at the first change; if that was a log, give the quota files their time.
    const files = quota.length > 0 || updated.length === 0 ? quota : await waitForChange(deps, before, definition?.debugLog, options.signal, true);
    if (files.length > 0) {
      const shown = files.map((f) => describeFile(f, deps.env));
      push('cache_observed', outcome.pass(`appeared or updated after the session: ${shown.join(', ')}`), shown, null);
    } else {
      const writable = quotaStatusWritable(deps.env);
      const dir = tildePath(quotaStatusDir(deps.env), deps.env);
      const diagnosis = await diagnose(deps, undefined);
      if (!writable.writable) {
        const own = fail('TELEMETRY_UNWRITABLE', `nothing under ${dir} appeared or changed: ${writable.observed}`, `The proxy writes its observations there as the same user: make ${dir} a writable directory, then run the acceptance again.`, [`ls -ld ~/.claude ${dir}`, `mkdir -p ${dir}/sessions && chmod u+rwx ~/.claude ${dir}`, 'gwctl accept']);
        push('cache_observed', explained(own, diagnosis, true), [writable.observed], diagnosis);
      } else {
        const own = fail('CACHE_NOT_OBSERVED', `nothing under ${dir} appeared or changed within ${deps.observationWaitMs} ms after the session (${writable.observed})`, 'The proxy records cache figures for streamed replies only; check that the client streams and that the proxy runs with the extension chain (GET /health ok), then run a session again.', ['gwctl proxy cache', 'gwctl accept']);
        push('cache_observed', explained(own, diagnosis), [writable.observed], diagnosis);
      }
    }
  }
  return { schemaVersion: 1, ok: checks.every((c) => c.status !== 'fail'), checks, layers };
}

/** Waits (bounded) until an observation file appears or changes; the proxy writes them shortly after a reply. */
async function waitForChange(deps: ProxyOperationDeps, before: ReturnType<typeof snapshot>, debugLog: string | undefined, signal?: AbortSignal, quotaOnly = false) {
  const deadline = Date.now() + deps.observationWaitMs;
  for (;;) {
    const changed = changedSince(before, observationFiles(deps.env, debugLog)).filter((f) => !quotaOnly || f.kind === 'account' || f.kind === 'session');
    if (changed.length > 0 || Date.now() >= deadline || signal?.aborted) return changed;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
