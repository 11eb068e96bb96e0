// The `groups` list of the providers file: model allowlists of identity-provider groups, as
// `gwctl admin group set` writes them to the database (an entry there wins over the file's).
import { ConfigError } from '../errors/config-error.ts';
import type { GroupPolicy } from '../store/group-policies-repo.ts';

export function parseGroups(file: string, value: unknown): GroupPolicy[] {
  if (value === undefined) return [];
  const fail = (field: string, problem: string): never => {
    throw new ConfigError('bad_config_file', `${file}: ${field} ${problem}.`, 'Fix the providers file; see server/README.md for its format.');
  };
  if (!Array.isArray(value)) fail('groups', 'must be a list of {name, models}');
  const seen = new Set<string>();
  return (value as unknown[]).map((entry, i) => {
    const group = (entry ?? {}) as Record<string, unknown>;
    if (typeof group.name !== 'string' || group.name.trim() === '' || group.name.includes(',')) fail(`groups[${i}].name`, 'must be the group as the identity provider names it (no commas)');
    if (seen.has(group.name as string)) fail(`groups[${i}].name`, `repeats "${group.name as string}"`);
    seen.add(group.name as string);
    const models = group.models;
    if (!Array.isArray(models) || models.length === 0 || models.some((m) => typeof m !== 'string' || m === '')) fail(`groups[${i}].models`, 'must be a non-empty list of public model names');
    return { name: group.name as string, models: models as string[], updatedAt: '' };
  });
}
