// Approved device sign-ins and their tokens. One grant is one family: its refresh tokens rotate on
// every use, and a refresh token used twice (stolen and raced) revokes the whole family. Tokens are
// stored only as SHA-256 hashes. A revocation travels like a key deletion (the grant id stands in
// the key's place in every instance's cache).
import type { Kysely, Transaction } from 'kysely';
import { hashApiKey } from '../auth/api-key-values.ts';
import { newId } from '../auth/random-tokens.ts';
import type { NotifyRevocation } from './keys-repo.ts';
import type { Database } from './schema.ts';

export interface SignInGrant {
  id: string;
  userId: string;
  clientName: string;
  createdAt: string;
  refreshedAt: string;
  revokedAt: string | null;
}

export interface IssuedTokens {
  accessToken: string;
  accessExpiresAt: Date;
  refreshToken: string;
  refreshExpiresAt: Date;
}

/** What a refresh token turned out to be. */
export type RefreshUse =
  | { kind: 'ok'; grant: SignInGrant }
  | { kind: 'unknown' }
  | { kind: 'expired' }
  | { kind: 'revoked' }
  /** Used before: the family is revoked now. */
  | { kind: 'reused'; grant: SignInGrant };

type GrantRow = Database['sign_in_grants'];

function toGrant(row: GrantRow): SignInGrant {
  return { id: row.id, userId: row.user_id, clientName: row.client_name, createdAt: row.created_at, refreshedAt: row.refreshed_at, revokedAt: row.revoked_at };
}

export class SignInGrantsRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly notifyRevocation?: NotifyRevocation,
  ) {}

  /** A new grant with its first tokens. */
  async create(userId: string, clientName: string, tokens: IssuedTokens, now: Date): Promise<SignInGrant> {
    const row: GrantRow = { id: newId('sgn'), user_id: userId, client_name: clientName, created_at: now.toISOString(), refreshed_at: now.toISOString(), revoked_at: null, revoked_reason: null };
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('sign_in_grants').values(row).execute();
      await this.storeTokens(trx, row.id, tokens, now);
    });
    return toGrant(row);
  }

  private async storeTokens(trx: Transaction<Database>, grantId: string, tokens: IssuedTokens, now: Date): Promise<void> {
    await trx.insertInto('access_tokens').values({ token_hash: hashApiKey(tokens.accessToken), grant_id: grantId, expires_at: tokens.accessExpiresAt.toISOString() }).execute();
    await trx
      .insertInto('refresh_tokens')
      .values({ token_hash: hashApiKey(tokens.refreshToken), grant_id: grantId, created_at: now.toISOString(), expires_at: tokens.refreshExpiresAt.toISOString(), used_at: null })
      .execute();
  }

  /**
   * Exchanges a refresh token for `next` (rotation). The token is marked used in the same
   * transaction, and only if it was unused, so of two racing uses exactly one wins; the other is a
   * reuse and revokes the family.
   */
  async rotate(refreshToken: string, next: IssuedTokens, now: Date): Promise<RefreshUse> {
    const hash = hashApiKey(refreshToken);
    const outcome = await this.db.transaction().execute(async (trx): Promise<RefreshUse> => {
      const row = await trx
        .selectFrom('refresh_tokens')
        .innerJoin('sign_in_grants', 'sign_in_grants.id', 'refresh_tokens.grant_id')
        .selectAll('sign_in_grants')
        .select(['refresh_tokens.expires_at as token_expires_at', 'refresh_tokens.used_at'])
        .where('refresh_tokens.token_hash', '=', hash)
        .executeTakeFirst();
      if (!row) return { kind: 'unknown' };
      const grant = toGrant(row);
      if (row.revoked_at) return { kind: 'revoked' };
      if (row.used_at) {
        await this.revokeIn(trx, grant.id, 'refresh token reused', now);
        return { kind: 'reused', grant };
      }
      if (row.token_expires_at <= now.toISOString()) return { kind: 'expired' };
      const marked = await trx.updateTable('refresh_tokens').set({ used_at: now.toISOString() }).where('token_hash', '=', hash).where('used_at', 'is', null).executeTakeFirst();
      if (Number(marked.numUpdatedRows) === 0) {
        await this.revokeIn(trx, grant.id, 'refresh token reused', now);
        return { kind: 'reused', grant };
      }
      await trx.updateTable('sign_in_grants').set({ refreshed_at: now.toISOString() }).where('id', '=', grant.id).execute();
      await this.storeTokens(trx, grant.id, next, now);
      return { kind: 'ok', grant };
    });
    return outcome;
  }

  /** The live grant an access token belongs to (with its expiry), or undefined. */
  async findAccess(accessToken: string): Promise<{ grant: SignInGrant; expiresAt: string } | undefined> {
    const row = await this.db
      .selectFrom('access_tokens')
      .innerJoin('sign_in_grants', 'sign_in_grants.id', 'access_tokens.grant_id')
      .selectAll('sign_in_grants')
      .select('access_tokens.expires_at as token_expires_at')
      .where('access_tokens.token_hash', '=', hashApiKey(accessToken))
      .where('sign_in_grants.revoked_at', 'is', null)
      .executeTakeFirst();
    return row ? { grant: toGrant(row), expiresAt: row.token_expires_at } : undefined;
  }

  /** The grant an access or refresh token belongs to, revoked or not. */
  async findByToken(token: string): Promise<SignInGrant | undefined> {
    const hash = hashApiKey(token);
    for (const table of ['access_tokens', 'refresh_tokens'] as const) {
      const row = await this.db
        .selectFrom(table)
        .innerJoin('sign_in_grants', 'sign_in_grants.id', `${table}.grant_id`)
        .selectAll('sign_in_grants')
        .where(`${table}.token_hash`, '=', hash)
        .executeTakeFirst();
      if (row) return toGrant(row);
    }
    return undefined;
  }

  private async revokeIn(trx: Transaction<Database>, grantId: string, reason: string, now: Date): Promise<boolean> {
    const result = await trx
      .updateTable('sign_in_grants')
      .set({ revoked_at: now.toISOString(), revoked_reason: reason })
      .where('id', '=', grantId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    await trx.deleteFrom('access_tokens').where('grant_id', '=', grantId).execute();
    const changed = Number(result.numUpdatedRows) > 0;
    if (changed) await this.notifyRevocation?.(trx, { kind: 'key', id: grantId });
    return changed;
  }

  /** Ends one sign-in; true when it was live. */
  async revoke(grantId: string, reason: string, now = new Date()): Promise<boolean> {
    return this.db.transaction().execute((trx) => this.revokeIn(trx, grantId, reason, now));
  }

  /** Ends every sign-in of the user (signed out everywhere, disabled); returns how many were live. */
  async revokeForUser(userId: string, reason: string, now = new Date()): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const live = await trx.selectFrom('sign_in_grants').select('id').where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
      for (const { id } of live) await this.revokeIn(trx, id, reason, now);
      return live.length;
    });
  }

  /** The user's live sign-ins, newest first. */
  async listForUser(userId: string): Promise<SignInGrant[]> {
    const rows = await this.db.selectFrom('sign_in_grants').selectAll().where('user_id', '=', userId).where('revoked_at', 'is', null).orderBy('created_at', 'desc').execute();
    return rows.map(toGrant);
  }

  /** Drops tokens past their expiry (a used refresh token is kept until then, to detect reuse). */
  async deleteExpiredTokens(now: Date): Promise<void> {
    await this.db.deleteFrom('access_tokens').where('expires_at', '<=', now.toISOString()).execute();
    await this.db.deleteFrom('refresh_tokens').where('expires_at', '<=', now.toISOString()).execute();
  }
}
