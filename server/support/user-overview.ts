// `gwctl admin user show <name>`: one account for support: state, limits, its keys (live and
// deleted) with their state and last use, and the account's recent failures by cause.
import type { UserLimits } from '../limits/key-limits.ts';
import type { Store } from '../store/store.ts';
import { failuresByCause, RECENT_DAYS, type FailureCount } from './recent-failures.ts';

export interface UserOverview {
  username: string;
  userId: string;
  isAdmin: boolean;
  disabled: boolean;
  createdAt: string;
  limits: UserLimits;
  keys: Array<{ keyId: string; hint: string; name: string | null; state: 'active' | 'expired' | 'deleted'; createdAt: string; lastUsedAt: string | null; expiresAt: string | null; deletedAt: string | null }>;
  recentFailures: FailureCount[];
  /** Requests in the period, answered and refused. */
  recentRequests: number;
  days: number;
}

const DAY_MS = 86_400_000;

export async function userOverview(store: Store, username: string, now = Date.now()): Promise<UserOverview | undefined> {
  const user = await store.users.findByName(username);
  if (!user) return undefined;
  const keys = await store.keys.listForUser(user.id);
  const deleted = await store.deletedKeys.listForUser(user.id);
  const recent = await store.requestLog.recentOf({ userId: user.id }, now - RECENT_DAYS * DAY_MS, 5_000);
  return {
    username: user.username,
    userId: user.id,
    isAdmin: user.isAdmin,
    disabled: user.disabled,
    createdAt: user.createdAt,
    limits: user.limits,
    keys: [
      ...keys.map((k) => ({
        keyId: k.id,
        hint: k.hint,
        name: k.name,
        state: k.limits.expiresAt !== null && Date.parse(k.limits.expiresAt) <= now ? ('expired' as const) : ('active' as const),
        createdAt: k.createdAt,
        lastUsedAt: k.lastUsedAt,
        expiresAt: k.limits.expiresAt,
        deletedAt: null,
      })),
      ...deleted.map((d) => ({ keyId: d.keyId, hint: d.hint, name: d.name, state: 'deleted' as const, createdAt: d.createdAt, lastUsedAt: null, expiresAt: null, deletedAt: d.deletedAt })),
    ],
    recentFailures: failuresByCause(recent),
    recentRequests: recent.length,
    days: RECENT_DAYS,
  };
}
