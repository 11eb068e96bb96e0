// Login sessions: the cookie carries a random token, the table only its hash plus a CSRF token.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { randomBase62 } from '../auth/random-tokens.ts';
import type { Database } from './schema.ts';

export interface Session {
  id: string;
  userId: string;
  csrfToken: string;
  createdAt: string;
  expiresAt: string;
}

export const SESSION_TTL_MS = 7 * 24 * 3600_000;

export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function expiryOf(createdMs: number, nowMs: number, idleMs: number): string {
  const absolute = createdMs + SESSION_TTL_MS;
  return new Date(idleMs > 0 ? Math.min(absolute, nowMs + idleMs) : absolute).toISOString();
}

export class SessionsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Returns the cookie token (shown only to the browser) and the stored session. With an idle
   * timeout the session ends that long after its last use (see touch), and never later than
   * SESSION_TTL_MS after the login.
   */
  async create(userId: string, now = new Date(), idleMs = 0): Promise<{ token: string; session: Session }> {
    const token = randomBase62(43);
    const session: Session = {
      id: hashSessionToken(token),
      userId,
      csrfToken: randomBase62(32),
      createdAt: now.toISOString(),
      expiresAt: expiryOf(now.getTime(), now.getTime(), idleMs),
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
    return { id: row.id, userId: row.user_id, csrfToken: row.csrf_token, createdAt: row.created_at, expiresAt: row.expires_at };
  }

  /**
   * A use of the session moves its idle expiry on. Written only when it moves by more than a
   * minute, so pages and calls in a row do not each cost a database write.
   */
  async touch(session: Session, idleMs: number, now = new Date()): Promise<void> {
    if (idleMs <= 0) return;
    const next = expiryOf(Date.parse(session.createdAt), now.getTime(), idleMs);
    if (Date.parse(next) - Date.parse(session.expiresAt) < 60_000) return;
    await this.db.updateTable('sessions').set({ expires_at: next }).where('id', '=', session.id).execute();
    session.expiresAt = next;
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
