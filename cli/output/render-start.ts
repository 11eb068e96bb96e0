// Text rendering of a safe start: the route and why, the client and its variables (credentials
// masked), the model and why, findings with their cause codes, and what happened to pinned settings;
// the line before a diagnosis of a failed client; and `gwctl start --restore`.
import type { CleanReport } from '../../core/client-settings/clean-pinned.ts';
import type { PinnedEntry } from '../../core/client-settings/pinned-entry.ts';
import type { RestoreReport } from '../../core/client-settings/restore-backups.ts';
import type { StartPlan } from '../../core/launch/plan-start.ts';
import { tildePath } from '../../core/paths.ts';

function entryText(entry: PinnedEntry): string {
  return entry.fileKind === 'settings' ? `env.${entry.variable}=${entry.shown}` : `line ${entry.line} ${entry.variable}=${entry.shown}`;
}

export const renderStart = {
  plan(plan: StartPlan, changes: CleanReport | null, env: NodeJS.ProcessEnv): string {
    const route = plan.route;
    const out: string[] = [];
    const target = route.baseUrl ?? "the client's default upstream";
    if (plan.refused) {
      out.push(`gwctl start: refused [${plan.refused.cause}]`, `  route     ${route.kind} → ${target}: ${route.reason}`);
    } else {
      out.push(`gwctl start: ${route.kind} route → ${target}${plan.dryRun ? ' (dry run)' : ''}`, `  why       ${route.reason}`);
    }
    out.push(`  client    ${[plan.client.path ?? `${plan.client.command} (not found)`, ...plan.client.args].join(' ')}   (profile ${plan.profile})`);
    out.push(`  env       ${Object.entries(plan.client.env).map(([k, v]) => (v === null ? `${k} unset` : `${k}=${v}`)).join('  ')}`);
    if (plan.credential?.foundIn && plan.credential.foundIn !== plan.credential.clientVar) out.push(`  key       from ${plan.credential.foundIn}, handed to the client as ${plan.credential.clientVar}`);
    const model = plan.model;
    if (plan.refused) {
      // The model is not asked for when the start is refused; nothing to say about it.
    } else if (model.id && model.source !== 'shell') out.push(`  model     ${model.id}: ${model.reason}; to choose another: ${model.override}`);
    else if (model.id) out.push(`  model     ${model.id}: ${model.reason}`);
    else out.push(`  model     the client's own choice: ${model.reason}`);
    if (plan.stripped.length > 0) out.push(`  stripped  ${plan.stripped.join(', ')}: vendor credentials from this shell, kept away from the client`);
    if (plan.isolation) {
      const iso = plan.isolation;
      out.push(`  isolated  ${Object.entries(iso.env).map(([k, v]) => `${k}=${v.split('{dir}').join(iso.dir)}`).join('  ')}   (${iso.files.join(', ')}${iso.links.length ? `; links ${iso.links.map((l) => l.path).join(', ')}` : ''}; removed when the client exits)`);
      for (const c of iso.carried) out.push(`  kept      ${tildePath(c, env)}`);
      for (const n of iso.notes) out.push(`  note      ${n}`);
    }
    for (const w of plan.warnings) out.push(`  finding   ${w.cause}: ${w.message}`);
    if (plan.refused) {
      out.push(`  problem   ${plan.refused.message}`);
      out.push(`  remedy    ${plan.refused.remedy}`);
      for (const c of plan.refused.commands) out.push(`    $ ${c}`);
      out.push('  Nothing was changed and the client was not started.');
      return out.join('\n') + '\n';
    }
    if (changes && changes.changed.length > 0) {
      for (const file of changes.changed) {
        const removed = file.removed.map(entryText).join(', ');
        out.push(
          file.backup
            ? `  settings  ${tildePath(file.file, env)}: backed up to ${tildePath(file.backup, env)}; removed ${removed}`
            : `  settings  ${tildePath(file.file, env)}: would be backed up; would remove ${removed}`,
        );
      }
      out.push(changes.dryRun ? '  Nothing was changed (--dry-run).' : '  Undo with: gwctl start --restore');
    } else {
      out.push('  settings  no pinned base address or credential found');
    }
    return out.join('\n') + '\n';
  },

  /** Before the client's output, in --json mode (stdout carries the document). */
  oneLine(plan: StartPlan): string {
    const model = plan.model.id ? `, model ${plan.model.id} (${plan.model.source})` : '';
    return `gwctl: ${plan.route.kind} route → ${plan.route.baseUrl ?? "the client's default upstream"}${model}; starting ${plan.client.command}\n`;
  },

  /** After a client failed: what is diagnosed next. */
  diagnosing(plan: StartPlan, exitCode: number): string {
    return `gwctl: ${plan.client.command} exited with code ${exitCode}; diagnosing what it saw on the ${plan.route.kind} route (${plan.route.baseUrl ?? "the client's default upstream"})\n`;
  },

  restore(report: RestoreReport, env: NodeJS.ProcessEnv): string {
    if (!report.operationId) return 'gwctl start --restore: nothing to restore (no clean-up by gwctl start is on record)\n';
    const out = [`gwctl start --restore: ${report.dryRun ? 'would restore' : 'restored'} ${report.files.length} file${report.files.length === 1 ? '' : 's'} changed at ${report.createdAt}`];
    for (const f of report.files) {
      if (f.missingBackup) {
        out.push(`  ${tildePath(f.file, env)}: backup ${tildePath(f.backup, env)} is missing; not restored`);
        continue;
      }
      out.push(`  ${tildePath(f.file, env)} ← ${tildePath(f.backup, env)} (${f.removed.join(', ')} back)`);
      if (f.keptCurrentAs) out.push(`    it was edited since; ${report.dryRun ? 'it would be backed up first' : `that version was saved to ${tildePath(f.keptCurrentAs, env)}`}`);
    }
    return out.join('\n') + '\n';
  },
};
