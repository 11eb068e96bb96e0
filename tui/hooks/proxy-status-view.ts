// The proxy status report of core/proxy/proxy-status.ts, put into the words and rows the screens
// show: health, the installed version against 4.2.1, the service as the supervisor sees it, and the
// findings (cause code, what was seen, remedy, commands) in the same shape as check results.
import type { ProxyStatusReport } from '../../core/proxy/proxy-status.ts';
import { tildePath } from '../../core/paths.ts';

export interface StatusRow {
  label: string;
  value: string;
  tone: 'pass' | 'warn' | 'fail' | null;
}

export interface FindingRow {
  id: string;
  status: 'warn' | 'fail';
  cause: string;
  observed: string;
  remedy: string;
  commands: string[];
}

export interface ProxyStatusView {
  ok: boolean;
  health: ProxyStatusReport['health']['state'];
  /** `name@version` of the copy gwctl works with, or null when not installed. */
  version: string | null;
  versionOk: boolean;
  /** e.g. `enabled/active (systemd)`, or null without a supervisor. */
  service: string | null;
  rows: StatusRow[];
  findings: FindingRow[];
}

export function describeProxyStatus(report: ProxyStatusReport, env: NodeJS.ProcessEnv = {}): ProxyStatusView {
  const { installation, definition, supervisor, health, port, upstream } = report;
  const active = installation.active;
  const service = supervisor.kind && supervisor.available ? `${supervisor.service.enabled}/${supervisor.service.active} (${supervisor.kind})` : null;
  const tilde = (p: string) => (env.HOME ? tildePath(p, env) : p);
  const rows: StatusRow[] = [
    { label: 'Installed', value: installation.observed, tone: !installation.installed ? 'fail' : installation.pinned ? 'pass' : 'fail' },
    {
      label: 'Definition',
      value: !definition
        ? 'no user supervisor on this platform'
        : definition.exists
          ? `${tilde(definition.file)}: upstream ${definition.upstream ?? '(default)'}, port ${definition.port ?? '(default)'}, debug ${definition.debug ? 'on' : 'off'}${definition.runs ? `, runs ${definition.runs.name}@${definition.runs.version}` : ''}`
          : `not installed (${tilde(definition.file)})`,
      tone: definition?.exists ? (definition.debug ? 'warn' : 'pass') : 'warn',
    },
    { label: 'Supervisor', value: supervisor.available ? supervisor.observed : (supervisor.unavailableReason ?? supervisor.observed), tone: supervisor.available ? (supervisor.service.active === 'active' || supervisor.service.active === 'running' ? 'pass' : 'warn') : 'warn' },
    {
      label: 'Health',
      value: `${health.observed}${health.hint ? `; hint: ${health.hint}` : ''}`,
      tone: health.state === 'ok' ? (health.slow ? 'warn' : 'pass') : health.state === 'degraded' ? 'warn' : 'fail',
    },
    { label: 'Port', value: port.observed, tone: port.contested ? 'fail' : 'pass' },
    { label: 'Upstream', value: upstream.check.observed, tone: upstream.check.status === 'pass' ? 'pass' : upstream.check.status === 'skip' ? null : upstream.check.status },
  ];
  return {
    ok: report.ok,
    health: health.state,
    version: active ? `${active.name}@${active.version}` : null,
    versionOk: installation.pinned,
    service,
    rows,
    findings: report.checks
      .filter((c): c is typeof c & { status: 'warn' | 'fail' } => c.status === 'warn' || c.status === 'fail')
      .map((c, i) => ({ id: `${i + 1}`, status: c.status, cause: c.cause ?? '', observed: c.observed, remedy: c.remedy ?? '', commands: c.commands })),
  };
}
