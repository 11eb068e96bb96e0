// Resolves an API key to its owner with an in-memory cache that never outlives a deletion:
// local deletions evict at once, and a change committed by another process clears the cache
// before the next lookup.
import { maskKey } from '../../core/redact.ts';
import { GatewayError } from '../errors/gateway-error.ts';
import { hashApiKey } from './api-key-values.ts';
import type { KeysRepo } from '../store/keys-repo.ts';
import type { UsersRepo } from '../store/users-repo.ts';

export interface AuthContext {
  keyId: string;
  userId: string;
  username: string;
}

const MAX_CACHED = 10_000;

export class KeyAuthenticator {
  private readonly cache = new Map<string, AuthContext>();

  constructor(
    private readonly keys: KeysRepo,
    private readonly users: UsersRepo,
    /** From the store: true when another connection changed the data; undefined disables caching. */
    private readonly changedElsewhere: (() => boolean) | undefined,
  ) {}

  async authenticate(key: string): Promise<AuthContext> {
    const hash = hashApiKey(key);
    if (this.changedElsewhere) {
      if (this.changedElsewhere()) this.cache.clear();
      const cached = this.cache.get(hash);
      if (cached) return cached;
    }
    const record = await this.keys.findByValue(key);
    const owner = record ? await this.users.findById(record.userId) : undefined;
    if (!record || !owner) {
      throw new GatewayError(
        401,
        'invalid_api_key',
        `Invalid API key (${maskKey(key)}): it is unknown, incomplete or was deleted. Copy the key again, or create a new one on the keys page.`,
      );
    }
    if (owner.disabled) {
      throw new GatewayError(401, 'account_disabled', `The account that owns this key (${maskKey(key)}) is disabled. Ask an operator.`);
    }
    const context: AuthContext = { keyId: record.id, userId: owner.id, username: owner.username };
    if (this.changedElsewhere) {
      if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(hash, context);
    }
    return context;
  }

  /** Called by this process after it deletes a key or disables a user. */
  forgetKey(keyId: string): void {
    for (const [hash, context] of this.cache) if (context.keyId === keyId) this.cache.delete(hash);
  }

  forgetUser(userId: string): void {
    for (const [hash, context] of this.cache) if (context.userId === userId) this.cache.delete(hash);
  }
}
