// Text rendering of `gwctl proxy status`: one line per part (installation, definition, supervisor,
// health, port, upstream), then the checks that found something, with cause, remedy and commands.
import type { ProxyStatusReport } from '../../core/proxy/proxy-status.ts';
import { tildePath } from '../../core/paths.ts';

const LABEL = { pass: 'ok', warn: 'WARN', fail: 'FAIL', skip: 'skip' } as const;

export function renderProxyStatus(report: ProxyStatusReport, env: NodeJS.ProcessEnv): string {
  const out: string[] = [`gwctl proxy status (pinned version ${report.pinnedVersion}, ${report.proxyUrl})`];
  const row = (name: string, text: string) => out.push(`  ${name.padEnd(11)} ${text}`);
  const inst = report.installation;
  row('installed', inst.active ? `${inst.active.name}@${inst.active.version}${inst.pinned ? '' : `  ← not ${report.pinnedVersion}`}` : 'no');
  if (inst.active) row('where', `${tildePath(inst.active.packageDir, env)}${inst.active.binPath ? `  (command ${tildePath(inst.active.binPath, env)})` : ''}`);
  if (inst.global && inst.onPath) row('on PATH', `${tildePath(inst.onPath.binPath ?? inst.onPath.packageDir, env)} (${inst.onPath.name}@${inst.onPath.version}) — another copy`);
  const def = report.definition;
  if (!def) row('definition', 'none for this platform');
  else if (!def.exists) row('definition', `not installed (${tildePath(def.file, env)})`);
  else {
    row('definition', tildePath(def.file, env));
    row('', `upstream ${def.upstream ?? '(not captured: the built-in default)'}, port ${def.port}, debug ${def.debug ? `on (${def.debugLog ?? '~/.claude/cache-fix-debug.log'})` : 'off'}${def.bodyAltering.length ? `, turns on ${def.bodyAltering.join(', ')}` : ''}`);
    if (def.runs) row('', `runs ${def.runs.name}@${def.runs.version} from ${tildePath(def.runs.packageDir, env)}`);
  }
  const sup = report.supervisor;
  row('supervisor', sup.available ? sup.observed : `unavailable: ${sup.unavailableReason ?? sup.observed}`);
  row('health', `${report.health.observed}${report.health.hint ? ` — hint: ${report.health.hint}` : ''}`);
  row('port', report.port.observed);
  row('upstream', `${LABEL[report.upstream.check.status]} (auth ${report.upstream.auth}): ${report.upstream.check.observed}`);
  const problems = report.checks.filter((c) => c.status === 'fail' || c.status === 'warn');
  if (problems.length === 0) out.push('OK: nothing to fix');
  for (const c of problems) {
    out.push(`${c.status === 'fail' ? 'FAIL' : 'WARN'}  ${c.cause}`, `      observed  ${c.observed}`);
    if (c.remedy) out.push(`      remedy    ${c.remedy}`);
    for (const command of c.commands) out.push(`        $ ${command}`);
  }
  if (problems.length) out.push(`${report.ok ? 'OK' : 'FAILED'}: ${problems.filter((c) => c.status === 'fail').length} failed, ${problems.filter((c) => c.status === 'warn').length} warning(s)`);
  return out.join('\n') + '\n';
}
