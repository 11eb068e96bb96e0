// What operators do to accounts — disable, enable, delete, reset a password — with the guards and
// the audit entry, shared by `gwctl admin`, the operator API and the /admin pages so the three
// cannot drift apart. Callers pass how to tell running instances (revoke) and who acts.
import type { RevocationEvent } from '../cluster/revocation.ts';
import type { AuditEntry } from '../store/audit-repo.ts';
import type { Store } from '../store/store.ts';
import type { User } from '../store/users-repo.ts';
import { AccountRuleError, checkNewPassword } from './account-rules.ts';
import type { Role } from './roles.ts';

export interface AccountActor extends Pick<AuditEntry, 'actor' | 'address'> {
  /** The acting account when a person signed in acts (web pages): they may not disable or delete themselves. */
  userId?: string;
}

export type Revoke = (event: RevocationEvent) => void | Promise<void>;

type AccountStore = Pick<Store, 'users' | 'sessions' | 'audit' | 'signInGrants'>;

async function guardRemoval(store: AccountStore, user: User, actor: AccountActor, verb: 'disable' | 'delete'): Promise<void> {
  if (actor.userId === user.id) {
    throw new AccountRuleError('self', `You cannot ${verb} your own account.`, `Ask another operator, or ${verb} it with \`gwctl admin user ${verb} ${user.username}\` on the gateway's host.`);
  }
  if (user.isAdmin && !user.disabled && (await store.users.countActiveOperators()) <= 1) {
    throw new AccountRuleError(
      'last_operator',
      `"${user.username}" is the last active operator; without one nobody could manage the gateway.`,
      'Create or enable another operator first (`gwctl admin user add <name> --admin`).',
    );
  }
}

/** Disables or enables; a user already in that state is left alone and nothing is audited (changed: false). */
export async function setUserDisabled(store: AccountStore, user: User, disabled: boolean, actor: AccountActor, revoke: Revoke): Promise<{ user: User; changed: boolean }> {
  if (user.disabled === disabled) return { user, changed: false };
  if (disabled) await guardRemoval(store, user, actor, 'disable');
  await store.users.setDisabled(user.id, disabled);
  if (disabled) {
    await store.sessions.deleteForUser(user.id);
    // Device sign-ins end too: enabling the account again must not bring old tokens back.
    await store.signInGrants.revokeForUser(user.id, 'account disabled');
    await revoke({ kind: 'user', id: user.id });
  }
  await store.audit.record({ actor: actor.actor, address: actor.address, action: disabled ? 'user.disable' : 'user.enable', target: `user:${user.username}` });
  return { user: { ...user, disabled }, changed: true };
}

/** Deletes the account: keys revoked on every instance at once, sessions ended, usage kept under its id. */
export async function deleteUser(store: AccountStore, user: User, actor: AccountActor, revoke: Revoke): Promise<{ keysRevoked: number }> {
  await guardRemoval(store, user, actor, 'delete');
  const result = await store.users.delete(user.id);
  if (!result) throw new AccountRuleError('not_found', `No user named "${user.username}".`, 'List users with `gwctl admin user list`.');
  await revoke({ kind: 'user', id: user.id });
  await store.audit.record({ actor: actor.actor, address: actor.address, action: 'user.delete', target: `user:${user.username}`, details: { id: user.id, keysRevoked: result.keysRevoked } });
  return result;
}

/** An operator sets a user's password; the user's web sessions end (keys are not touched). */
export async function resetPassword(store: AccountStore, user: User, password: string, actor: AccountActor): Promise<void> {
  checkNewPassword(password, user.username);
  await store.users.setPassword(user.id, password);
  await store.sessions.deleteForUser(user.id);
  await store.audit.record({ actor: actor.actor, address: actor.address, action: 'user.password', target: `user:${user.username}`, details: { by: 'operator', sessionsEnded: true } });
}

/**
 * Changes an account's role: nobody changes their own, and the last active operator stays one.
 * Audited with the old and new role; unchanged roles change and record nothing.
 */
export async function setUserRole(store: AccountStore, user: User, role: Role, actor: AccountActor): Promise<{ user: User; changed: boolean }> {
  if (user.role === role) return { user, changed: false };
  if (actor.userId === user.id) {
    throw new AccountRuleError('self', 'You cannot change your own role.', `Ask another operator, or run \`gwctl admin user set ${user.username} --role ${role}\` on the gateway's host.`);
  }
  if (user.role === 'operator' && !user.disabled && (await store.users.countActiveOperators()) <= 1) {
    throw new AccountRuleError('last_operator', `"${user.username}" is the last active operator; without one nobody could manage the gateway.`, 'Make another account an operator first.');
  }
  await store.users.setRole(user.id, role);
  await store.audit.record({ actor: actor.actor, address: actor.address, action: 'user.role', target: `user:${user.username}`, details: { from: user.role, to: role } });
  return { user: { ...user, role, isAdmin: role === 'operator' }, changed: true };
}

/** An operator ends every device sign-in of an account (gwctl login, Claude Code); its keys stay. */
export async function endUserSignIns(store: AccountStore, user: User, actor: AccountActor, revoke: Revoke): Promise<{ ended: number }> {
  const ended = await store.signInGrants.revokeForUser(user.id, 'ended by an operator');
  if (ended > 0) {
    await revoke({ kind: 'user', id: user.id });
    await store.audit.record({ actor: actor.actor, address: actor.address, action: 'signin.revoke', target: `user:${user.username}`, details: { ended, reason: 'ended by an operator' } });
  }
  return { ended };
}
