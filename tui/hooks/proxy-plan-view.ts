// A planned proxy action (core/proxy/proxy-action-types.ts PlannedChange) as the confirmation shows
// it: a refusal, or what will change (files written, backed up, removed; the captured environment;
// the commands in order), then warnings, notes and the regression reminder for body-altering changes.
import type { PlannedChange } from '../../core/proxy/proxy-action-types.ts';
import { tildePath } from '../../core/paths.ts';

export interface PlanView {
  refused: { cause: string; message: string; remedy: string; commands: string[] } | null;
  changes: string[];
  notes: string[];
  commands: string[];
}

export function describePlan(plan: PlannedChange, env: NodeJS.ProcessEnv = {}): PlanView {
  const tilde = (p: string) => (env.HOME ? tildePath(p, env) : p);
  const changes = [
    ...plan.backups.map((f) => `back up ${tilde(f)}`),
    ...plan.filesWritten.map((f) => `write ${tilde(f)}`),
    ...plan.filesRemoved.map((f) => `remove ${tilde(f)}`),
    ...Object.entries(plan.environment).map(([k, v]) => (v === null ? `${k}: not captured (the default)` : `${k}=${v} captured in the service definition`)),
    ...plan.steps.map((s) => `${s.kind === 'run' ? '$ ' : ''}${s.shown}${s.purpose ? `  (${s.purpose})` : ''}`),
  ];
  const notes = [...plan.warnings.map((w) => `warning: ${w}`), ...plan.notes];
  const commands: string[] = [];
  if (plan.bodyAltering) {
    notes.push(`${plan.bodyAltering.reasons.join('; ')}. ${plan.bodyAltering.reminder}`);
    commands.push(...plan.bodyAltering.commands);
  }
  const refused = plan.refused ? { cause: plan.refused.cause, message: plan.refused.message, remedy: plan.refused.remedy, commands: plan.refused.commands } : null;
  return { refused, changes, notes, commands };
}
