// Text rendering of resolved settings (key, value, where it came from) and of the variables
// `gwctl start` sets for the client under the active profile.
import type { ResolvedSetting } from '../../core/config/resolve-settings.ts';
import type { StartVariables } from '../../core/launch/start-variables.ts';
import { tildePath } from '../../core/paths.ts';
import { formatTable } from './format-table.ts';

export function settingValueText(value: ResolvedSetting['value']): string {
  if (value === null) return '(not set)';
  if (Array.isArray(value)) return value.length ? value.join(', ') : '(none)';
  return value;
}

export function settingSourceText(s: Pick<ResolvedSetting, 'source' | 'origin'>, env: NodeJS.ProcessEnv): string {
  if (s.source === 'default') return 'default';
  if (s.source === 'profile') return `profile ${s.origin}`;
  return `${s.source} (${s.source === 'file' ? tildePath(s.origin!, env) : s.origin})`;
}

export function renderSettings(settings: ResolvedSetting[], env: NodeJS.ProcessEnv): string {
  return formatTable(
    ['KEY', 'VALUE', 'SOURCE'],
    settings.map((s) => [s.key, settingValueText(s.value), settingSourceText(s, env)]),
  );
}

export function renderStartVariables(start: StartVariables): string {
  const from = start.profile.source === 'default' ? 'the default' : `${start.profile.source}${start.profile.origin ? ` ${start.profile.origin}` : ''}`;
  const out = [`Client profile: ${start.profile.name} (${from}): ${start.profile.describe}`];
  if (start.problem) {
    out.push(`  ${start.problem.message}`);
    if (start.problem.remedy) out.push(`  ${start.problem.remedy}`);
    return out.join('\n') + '\n';
  }
  out.push(`gwctl start runs ${start.command} with:`);
  out.push(formatTable(['VARIABLE', 'VALUE', 'WHY'], start.variables.map((v) => [v.name, v.value, v.note])).replace(/^/gm, '  ').trimEnd());
  return out.join('\n') + '\n';
}
