// Text rendering of resolved settings: key, value, and where it came from.
import type { ResolvedSetting } from '../../core/config/resolve-settings.ts';
import { tildePath } from '../../core/paths.ts';
import { formatTable } from './format-table.ts';

export function settingValueText(value: ResolvedSetting['value']): string {
  if (value === null) return '(not set)';
  return Array.isArray(value) ? value.join(', ') : value;
}

export function renderSettings(settings: ResolvedSetting[], env: NodeJS.ProcessEnv): string {
  return formatTable(
    ['KEY', 'VALUE', 'SOURCE'],
    settings.map((s) => [s.key, settingValueText(s.value), s.source === 'default' ? 'default' : `${s.source} (${s.source === 'file' ? tildePath(s.origin!, env) : s.origin})`]),
  );
}
