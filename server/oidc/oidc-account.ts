// Which gateway account an identity-provider sign-in becomes: the account linked to its subject,
// or a new one on the first sign-in (named by preferred_username, else email, else sub; never
// linked to an existing local account by name). The provider's groups decide the role and, through
// group allowlists, the models. An account disabled or removed at the gateway stays refused.
import { randomBase62 } from '../auth/random-tokens.ts';
import type { Role } from '../accounts/roles.ts';
import type { GatewayDeps } from '../gateway-deps.ts';
import { revokeEverywhere } from '../cluster/revoke-everywhere.ts';
import { USERNAME_PATTERN, type User } from '../store/users-repo.ts';
import type { OidcSettings } from './oidc-settings.ts';

export type AccountOutcome = { ok: true; user: User; created: boolean } | { ok: false; reason: string };

export function groupsFromClaims(claims: Record<string, unknown>, claim: string): string[] {
  const value = claims[claim];
  if (typeof value === 'string') return value ? [value] : [];
  return Array.isArray(value) ? value.filter((g): g is string => typeof g === 'string') : [];
}

export function roleFromGroups(groups: string[], settings: OidcSettings): Role {
  if (groups.some((g) => settings.adminGroups.includes(g))) return 'operator';
  if (groups.some((g) => settings.viewerGroups.includes(g))) return 'viewer';
  return 'member';
}

/** A user name from the claims that fits the gateway's pattern. */
function baseName(claims: Record<string, unknown>): string {
  const candidates = [claims.preferred_username, claims.email, claims.sub].filter((v): v is string => typeof v === 'string' && v !== '');
  for (const candidate of candidates) {
    const cleaned = candidate.replace(/[^A-Za-z0-9._@-]/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 60);
    if (cleaned && USERNAME_PATTERN.test(cleaned)) return cleaned;
  }
  return `user-${randomBase62(8)}`;
}

async function freeName(deps: GatewayDeps, name: string): Promise<string> {
  if (!(await deps.store.users.findByName(name))) return name;
  for (let n = 2; n < 1000; n++) {
    const candidate = `${name.slice(0, 58)}-${n}`;
    if (!(await deps.store.users.findByName(candidate))) return candidate;
  }
  return `${name.slice(0, 50)}-${randomBase62(8)}`;
}

export async function accountForSignIn(deps: GatewayDeps, settings: OidcSettings, claims: Record<string, unknown>): Promise<AccountOutcome> {
  const now = new Date((deps.now ?? Date.now)());
  const subject = String(claims.sub);
  const groups = groupsFromClaims(claims, settings.groupsClaim);
  const role = roleFromGroups(groups, settings);
  const actor = { actor: `oidc:${subject.slice(0, 64)}`, address: 'identity provider' };
  const linked = await deps.store.identities.find(settings.issuer, subject);
  if (!linked) {
    const username = await freeName(deps, baseName(claims));
    // No password works for it: the account signs in through the provider (an operator may set one).
    const user = await deps.store.users.create(username, randomBase62(48), { role });
    await deps.store.identities.link(settings.issuer, subject, user.id, groups, now);
    await deps.store.audit.record({ ...actor, action: 'user.create', target: `user:${username}`, details: { via: 'single sign-on', role, groups } });
    return { ok: true, user, created: true };
  }
  const user = await deps.store.users.findById(linked.userId);
  if (!user) return { ok: false, reason: 'Your account was removed from the gateway. Ask an operator if you should have access.' };
  if (user.disabled) return { ok: false, reason: 'Your account is disabled on the gateway. Ask an operator to enable it.' };
  await deps.store.identities.noteSignIn(settings.issuer, subject, groups, now);
  if (JSON.stringify([...linked.groups].sort()) !== JSON.stringify([...groups].sort())) revokeEverywhere(deps, { kind: 'user', id: user.id });
  if (user.role !== role) {
    await deps.store.users.setRole(user.id, role);
    await deps.store.audit.record({ ...actor, action: 'user.role', target: `user:${user.username}`, details: { from: user.role, to: role, via: 'groups', groups } });
    return { ok: true, user: { ...user, role, isAdmin: role === 'operator' }, created: false };
  }
  return { ok: true, user, created: false };
}
