// Text rendering of proxy actions: the plan before running (commands, backups, environment, the
// regression reminder), and the outcome after (steps, backups, health, cause and remedy).
import { tildePath } from '../../core/paths.ts';
import type { OperationResult, PlannedChange } from '../../core/proxy/proxy-action-types.ts';

function title(action: PlannedChange['action']): string {
  return `gwctl proxy ${action.replace('service-', 'service ')}`;
}

export const renderProxyAction = {
  plan(change: PlannedChange, env: NodeJS.ProcessEnv, dryRun: boolean): string {
    const out: string[] = [];
    if (change.refused) return '';
    out.push(`${title(change.action)}${dryRun ? ' (dry run: nothing is run or changed)' : ''}`);
    const env_ = Object.entries(change.environment);
    if (env_.length) out.push(`  environment  ${env_.map(([k, v]) => (v === null ? `${k} unset` : `${k}=${v}`)).join('  ')}`);
    for (const w of change.warnings) out.push(`  warning      ${w}`);
    if (change.bodyAltering) {
      out.push(`  body change  ${change.bodyAltering.reasons.join('; ')}`);
      out.push(`  reminder     ${change.bodyAltering.reminder}`);
      for (const c of change.bodyAltering.commands) out.push(`    $ ${c}`);
    }
    for (const b of change.backups) out.push(`  backup       ${tildePath(b, env)} (timestamped copy next to it)`);
    for (const step of change.steps) out.push(`  ${step.kind === 'run' ? '$' : '-'} ${step.shown}${step.purpose ? `   # ${step.purpose}` : ''}`);
    for (const n of change.notes) out.push(`  note         ${n}`);
    return out.join('\n') + '\n';
  },

  result(result: OperationResult, env: NodeJS.ProcessEnv): string {
    const out: string[] = [];
    if (result.plan.refused) {
      const r = result.plan.refused;
      out.push(`${title(result.action)}: refused [${r.cause}]`, `  problem   ${r.message}`, `  remedy    ${r.remedy}`);
      for (const c of r.commands) out.push(`    $ ${c}`);
      out.push('  Nothing was changed.');
      return out.join('\n') + '\n';
    }
    for (const b of result.backups) out.push(`  backed up ${tildePath(b, env)}`);
    for (const r of result.regression) out.push(`  regression ${r.phase}: ${r.ok ? 'ok' : 'FAILED'} — ${r.runs.map((run) => run.observed).join(' | ')}`);
    for (const n of result.notes.filter((n) => !result.plan.notes.includes(n))) out.push(`  note      ${n}`);
    if (result.ok) out.push(`OK: ${result.summary}`);
    else if (result.exitCode === 130) out.push(`INTERRUPTED: ${result.summary}`);
    else {
      out.push(`FAILED [${result.cause}]: ${result.summary}`);
      if (result.remedy) out.push(`  remedy    ${result.remedy}`);
      for (const c of result.commands ?? []) out.push(`    $ ${c}`);
    }
    return out.join('\n') + '\n';
  },
};
