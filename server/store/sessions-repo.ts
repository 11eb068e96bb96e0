// Login sessions: the cookie carries a random token, the table only its hash plus a CSRF token.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { randomBase62 } from '../auth/random-tokens.ts';
import type { Database } from './schema.ts';

export interface Session {
  id: string;
  userId: string;
  csrfToken: string;
  expiresAt: string;
}

export const SESSION_TTL_MS = 7 * 24 * 3600_000;

export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export class SessionsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** Returns the cookie token (shown only to the browser) and the stored session. */
  async create(userId: string, now = new Date()): Promise<{ token: string; session: Session }> {
    const token = randomBase62(43);
    const session: Session = {
      id: hashSessionToken(token),
      userId,
      csrfToken: randomBase62(32),
      expiresAt: new Date(now.getTime() + SESSION_TTL_MS).toISOString(),
    };
    await this.db
      .insertInto('sessions')
      .values({ id: session.id, user_id: userId, csrf_token: session.csrfToken, created_at: now.toISOString(), expires_at: session.expiresAt })
      .execute();
    return { token, session };
  }

  async find(token: string, now = new Date()): Promise<Session | undefined> {
    const row = await this.db.selectFrom('sessions').selectAll().where('id', '=', hashSessionToken(token)).executeTakeFirst();
    if (!row) return undefined;
    if (row.expires_at <= now.toISOString()) {
      await this.db.deleteFrom('sessions').where('id', '=', row.id).execute();
      return undefined;
    }
    return { id: row.id, userId: row.user_id, csrfToken: row.csrf_token, expiresAt: row.expires_at };
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('id', '=', id).execute();
  }

  async deleteForUser(userId: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('user_id', '=', userId).execute();
  }

  /** The user's live sessions, newest first (ids are token hashes: never shown whole). */
  async listForUser(userId: string, now = new Date()): Promise<Array<{ id: string; createdAt: string; expiresAt: string }>> {
    const rows = await this.db
      .selectFrom('sessions')
      .select(['id', 'created_at', 'expires_at'])
      .where('user_id', '=', userId)
      .where('expires_at', '>', now.toISOString())
      .orderBy('created_at', 'desc')
      .execute();
    return rows.map((r) => ({ id: r.id, createdAt: r.created_at, expiresAt: r.expires_at }));
  }

  /** Signs the user out everywhere except the session given; returns how many ended. */
  async deleteOthers(userId: string, keepId: string): Promise<number> {
    const result = await this.db.deleteFrom('sessions').where('user_id', '=', userId).where('id', '!=', keepId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async deleteExpired(now = new Date()): Promise<void> {
    await this.db.deleteFrom('sessions').where('expires_at', '<=', now.toISOString()).execute();
  }
}
