// The models a person may use by their identity-provider groups: the union of the allowlists of
// their groups that have one; no restriction when none of their groups has one. It narrows the
// account's own model list (never widens it) and is cached with every key and token of the account
// (a change travels like a user revocation).
import type { UserLimits } from '../limits/key-limits.ts';
import type { GroupPolicy } from '../store/group-policies-repo.ts';
import type { Store } from '../store/store.ts';

export function modelsForGroups(groups: string[], policies: GroupPolicy[]): string[] | null {
  const applying = policies.filter((p) => groups.includes(p.name));
  if (applying.length === 0) return null;
  return [...new Set(applying.flatMap((p) => p.models))];
}

export function narrowedByGroups(limits: UserLimits, groupModels: string[] | null): UserLimits {
  if (groupModels === null) return limits;
  const models = limits.models ? limits.models.filter((m) => groupModels.includes(m)) : groupModels;
  return { ...limits, models };
}

/** The database's entries, and the providers file's for groups the database has none for. */
export function withFileGroups(stored: GroupPolicy[], fromFile: GroupPolicy[]): GroupPolicy[] {
  const named = new Set(stored.map((p) => p.name));
  return [...stored, ...fromFile.filter((p) => !named.has(p.name))];
}

/** The loader the key authenticator calls on a cache miss (two small queries). */
export function groupModelsLoader(store: Pick<Store, 'identities' | 'groupPolicies'>, fromFile: GroupPolicy[] = []): (userId: string) => Promise<string[] | null> {
  return async (userId) => {
    const groups = await store.identities.groupsOf(userId);
    if (groups.length === 0) return null;
    return modelsForGroups(groups, withFileGroups(await store.groupPolicies.list(), fromFile));
  };
}
