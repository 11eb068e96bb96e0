// Text rendering of the acceptance layers, the relay check and the cache observations. Check lines
// reuse the doctor renderer, so every command reads alike.
import type { CheckResult } from '../../core/doctor/check.ts';
import { tildePath } from '../../core/paths.ts';
import type { CacheReport } from '../../core/proxy/cache-report.ts';
import type { CheckReport, ProxyCheckResult } from '../../core/proxy/proxy-causes.ts';
import type { RelayReport } from '../../core/proxy/relay-probe.ts';
import { formatTable } from './format-table.ts';
import { renderChecks } from './render-checks.ts';

// The doctor renderer prints the cause as text; proxy cause codes are printed the same way.
const asCheck = (r: ProxyCheckResult) => r as unknown as CheckResult;

export const renderProxyReports = {
  check(result: ProxyCheckResult): string {
    return renderChecks.one(asCheck(result));
  },

  progress(result: ProxyCheckResult): string {
    return renderChecks.progress(asCheck(result));
  },

  summary(results: ProxyCheckResult[]): string {
    return renderChecks.summary(results.map(asCheck));
  },

  acceptance(report: CheckReport): string {
    const out: string[] = [];
    for (const layer of report.layers) {
      const check = report.checks.find((c) => c.id === layer.id)!;
      out.push(renderProxyReports.check(check).trimEnd());
      if (check.status === 'pass' || check.status === 'skip') for (const e of layer.evidence.slice(1)) out.push(`      evidence  ${e}`);
      const failed = layer.diagnosis?.checks.filter((c) => c.status === 'fail') ?? [];
      if (failed.length) out.push(`      diagnosis ${failed.map((c) => `${c.id} ${c.cause}`).join(', ')}`);
    }
    out.push(renderProxyReports.summary(report.checks).trimEnd());
    return out.join('\n') + '\n';
  },

  relay(report: RelayReport): string {
    return `gwctl proxy upstream check ${report.url} (model ${report.model})\n${report.checks.map((c) => renderProxyReports.check(c)).join('')}${report.ok ? 'OK: usable as CACHE_FIX_PROXY_UPSTREAM' : 'FAILED: do not use it as the proxy upstream'} — ${renderProxyReports.summary(report.checks)}`;
  },

  cache(report: CacheReport, env: NodeJS.ProcessEnv): string {
    const out: string[] = [`gwctl proxy cache: ${tildePath(report.dir, env)}${report.exists ? '' : ' (does not exist yet: no session has gone through the proxy)'}`];
    if (report.sessions.length) {
      out.push(
        formatTable(
          ['session', 'hit rate', 'cache read', 'cache creation', 'TTL tier', 'observed'],
          report.sessions.map((s) => [s.session.length > 36 ? `${s.session.slice(0, 35)}…` : s.session, s.hitRate === null ? 'n/a' : `${s.hitRate} %`, s.cacheRead, s.cacheCreation, s.ttlTier, s.observedAt]),
        ).trimEnd(),
      );
    } else if (report.exists) out.push('no session files yet');
    if (report.account) out.push(`account: status ${report.account.status ?? '?'}, 5h ${report.account.fiveHourPct ?? '?'} %, 7d ${report.account.sevenDayPct ?? '?'} % (observed ${report.account.observedAt})`);
    for (const p of report.problems) out.push(`could not read ${p}`);
    out.push(`note: ${report.note}`);
    return out.join('\n') + '\n';
  },
};
