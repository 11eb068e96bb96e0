// Resolves an API key to its owner with an in-memory cache that never outlives a deletion. Local
// deletions evict at once. Changes made by other processes reach the cache one of two ways:
// - SQLite: the file's data_version moves, and the whole cache is dropped before the next lookup.
//   Reading data_version takes file locks (system calls), so it is read at most once per
//   ELSEWHERE_CHECK_MS: a key deleted by another process (the CLI) stops working within 5 ms;
// - PostgreSQL (several instances): revocation feeds (LISTEN/NOTIFY, Redis) name what to drop.
//   While any feed is disconnected, the cache is bypassed and every request reads the database.
// In steady state a request costs no query.
import { causeEntry } from '../../core/causes/catalogue.ts';
import { maskKey } from '../../core/redact.ts';
import { GatewayError } from '../errors/gateway-error.ts';
import type { RevocationEvent, RevocationFeed } from '../cluster/revocation.ts';
import type { KeyLimits, UserLimits } from '../limits/key-limits.ts';
import { hashApiKey } from './api-key-values.ts';
import type { KeysRepo } from '../store/keys-repo.ts';
import type { UsersRepo } from '../store/users-repo.ts';
import type { SignInGrantsRepo } from '../store/sign-in-grants-repo.ts';
import { ACCESS_TOKEN_PREFIX } from '../sign-in/sign-in-secrets.ts';
import { NO_BUDGETS } from '../limits/key-limits.ts';
import { narrowedByGroups } from '../accounts/group-models.ts';

export interface AuthContext {
  /** The key's id, or for a device sign-in's access token the sign-in (grant) id. */
  keyId: string;
  /** Set when the credential is a sign-in's short-lived access token rather than an API key. */
  signIn?: true;
  userId: string;
  username: string;
  /** Cached with the key so enforcing them costs no query; an edit evicts like a deletion. */
  limits: KeyLimits;
  /** The owner's limits, an upper bound for all their keys; cached and evicted the same way. */
  userLimits: UserLimits;
}

export interface CacheInvalidation {
  /** SQLite: true when another connection committed a change since the last call. */
  changedElsewhere?: () => boolean;
  /** PostgreSQL: the feeds that carry other instances' revocations. */
  feeds?: RevocationFeed[];
}

const MAX_CACHED = 10_000;
/** How often (at most) SQLite's data_version is read: the longest another process's revocation waits. */
export const ELSEWHERE_CHECK_MS = 5;

export class KeyAuthenticator {
  private readonly cache = new Map<string, AuthContext>();
  /** Moves on every revocation, so a lookup that raced with one does not cache what it read. */
  private generation = 0;
  /** Lookups that went to the database (for the scale-out benchmark and metrics). */
  databaseLookups = 0;
  private nextElsewhereCheck = 0;

  constructor(
    private readonly keys: KeysRepo,
    private readonly users: UsersRepo,
    private readonly invalidation: CacheInvalidation = {},
    /** Device sign-ins, whose access tokens work like a key of their user; absent = keys only. */
    private readonly signIns?: Pick<SignInGrantsRepo, 'findAccess'>,
    /** The models the owner's identity-provider groups allow (null = no restriction); absent = no groups. */
    private readonly groupModels?: (userId: string) => Promise<string[] | null>,
  ) {}

  /** Subscribes to the revocation feeds; call once at start. */
  async start(): Promise<void> {
    for (const feed of this.invalidation.feeds ?? []) {
      await feed.start({ event: (event) => this.revoke(event), resync: () => this.clear() });
    }
  }

  private cacheUsable(): boolean {
    const { changedElsewhere, feeds } = this.invalidation;
    if (changedElsewhere) {
      const now = performance.now();
      if (now >= this.nextElsewhereCheck) {
        this.nextElsewhereCheck = now + ELSEWHERE_CHECK_MS;
        if (changedElsewhere()) this.clear();
      }
      return true;
    }
    return feeds !== undefined && feeds.length > 0 && feeds.every((feed) => feed.connected);
  }

  async authenticate(key: string): Promise<AuthContext> {
    const hash = hashApiKey(key);
    const usable = this.cacheUsable();
    if (usable) {
      const cached = this.cache.get(hash);
      if (cached) return cached;
    }
    const generation = this.generation;
    this.databaseLookups += 1;
    const found = this.signIns && key.startsWith(ACCESS_TOKEN_PREFIX) ? await this.lookUpAccessToken(key, this.signIns) : await this.lookUpKey(key);
    const context = this.groupModels ? { ...found, userLimits: narrowedByGroups(found.userLimits, await this.groupModels(found.userId)) } : found;
    if (usable && generation === this.generation) {
      if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(hash, context);
    }
    return context;
  }

  private async lookUpKey(key: string): Promise<AuthContext> {
    const record = await this.keys.findByValue(key);
    const owner = record ? await this.users.findById(record.userId) : undefined;
    if (!record || !owner) {
      throw new GatewayError(
        401,
        'invalid_api_key',
        `Invalid API key (${maskKey(key)}): it is unknown, incomplete or was deleted. ${causeEntry('KEY_DELETED').userRemedy} ${causeEntry('KEY_UNKNOWN').userRemedy}`,
      );
    }
    if (owner.disabled) {
      throw new GatewayError(401, 'account_disabled', `The account that owns this key (${maskKey(key)}) is disabled. ${causeEntry('USER_DISABLED').userRemedy}`, {
        subject: { userId: owner.id, keyId: record.id },
      });
    }
    return { keyId: record.id, userId: owner.id, username: owner.username, limits: record.limits, userLimits: owner.limits };
  }

  /**
   * An access token of a device sign-in: a key of its user that expires with the token (checked on
   * every request from the cached context) and has no limits of its own, only its user's.
   */
  private async lookUpAccessToken(token: string, signIns: Pick<SignInGrantsRepo, 'findAccess'>): Promise<AuthContext> {
    const found = await signIns.findAccess(token);
    const owner = found ? await this.users.findById(found.grant.userId) : undefined;
    if (!found || !owner) {
      throw new GatewayError(401, 'invalid_access_token', 'This access token is unknown, or its sign-in was ended (signed out, revoked or refused after a reused refresh token). Sign in again: `gwctl login`, or /login in Claude Code.');
    }
    if (owner.disabled) {
      throw new GatewayError(401, 'account_disabled', `The account signed in with this access token is disabled. ${causeEntry('USER_DISABLED').userRemedy}`, {
        subject: { userId: owner.id, keyId: found.grant.id },
      });
    }
    return {
      keyId: found.grant.id,
      signIn: true,
      userId: owner.id,
      username: owner.username,
      limits: { expiresAt: found.expiresAt, models: null, rateLimit: null, budgets: NO_BUDGETS },
      userLimits: owner.limits,
    };
  }

  revoke(event: RevocationEvent): void {
    this.generation += 1;
    if (event.kind === 'key') this.forgetKey(event.id);
    else this.forgetUser(event.id);
  }

  private clear(): void {
    this.generation += 1;
    this.cache.clear();
  }

  /** Called by this process after it deletes or changes a key, or disables a user. */
  forgetKey(keyId: string): void {
    this.generation += 1;
    for (const [hash, context] of this.cache) if (context.keyId === keyId) this.cache.delete(hash);
  }

  forgetUser(userId: string): void {
    this.generation += 1;
    for (const [hash, context] of this.cache) if (context.userId === userId) this.cache.delete(hash);
  }

  async close(): Promise<void> {
    for (const feed of this.invalidation.feeds ?? []) await feed.close();
  }
}
