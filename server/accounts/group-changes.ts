// Setting and deleting a group's model allowlist, audited, and the members whose cached keys and
// tokens must be dropped (they carry the old allowlist).
import type { AuditEntry } from '../store/audit-repo.ts';
import type { GroupPolicy } from '../store/group-policies-repo.ts';
import type { Store } from '../store/store.ts';

type GroupStore = Pick<Store, 'groupPolicies' | 'identities' | 'audit'>;
type Actor = Pick<AuditEntry, 'actor' | 'address'>;

export const GROUP_NAME_PATTERN = /^[^\s,][^,]{0,127}$/;

async function membersOf(store: GroupStore, name: string): Promise<string[]> {
  const byUser = await store.identities.groupsByUser();
  return [...byUser.entries()].filter(([, groups]) => groups.includes(name)).map(([userId]) => userId);
}

export async function setGroupModels(store: GroupStore, name: string, models: string[], actor: Actor): Promise<{ policy: GroupPolicy; members: string[] }> {
  if (!GROUP_NAME_PATTERN.test(name)) throw new RangeError('A group name is 1-128 characters, without commas, not starting with a space.');
  if (models.length === 0) throw new RangeError('Name at least one model (--models a,b); to lift the group\'s restriction, delete it.');
  const policy = await store.groupPolicies.set(name, models);
  await store.audit.record({ ...actor, action: 'group.set', target: `group:${name}`, details: { models } });
  return { policy, members: await membersOf(store, name) };
}

export async function deleteGroupModels(store: GroupStore, name: string, actor: Actor): Promise<{ deleted: boolean; members: string[] }> {
  const deleted = await store.groupPolicies.delete(name);
  if (deleted) await store.audit.record({ ...actor, action: 'group.delete', target: `group:${name}` });
  return { deleted, members: deleted ? await membersOf(store, name) : [] };
}
