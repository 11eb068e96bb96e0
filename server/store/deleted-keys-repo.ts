// Tombstones of deleted keys: the hash, owner, name, hint and when, written in the same transaction
// as the deletion. A request made later with a deleted key's value is then told apart from a value
// no key ever had (mistyped, copied incompletely), and the support desk can say when it went.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from './schema.ts';

export interface DeletedKeyRecord {
  keyId: string;
  userId: string;
  /** The owner's name when the key was deleted. */
  username: string;
  name: string | null;
  hint: string;
  createdAt: string;
  deletedAt: string;
  /** The first 16 hex digits of the key's SHA-256, as the request log names a refused value. */
  fingerprint: string;
}

/** How the request log and the support desk name a key value without keeping it. */
export const FINGERPRINT_LENGTH = 16;
export const fingerprintOfHash = (keyHash: string): string => keyHash.slice(0, FINGERPRINT_LENGTH);

/** Before the keys go: one tombstone per key of `which` (a deletion that races with another keeps the first). */
export async function tombstoneKeys(trx: Transaction<Database>, which: { keyId: string; userId?: string } | { userId: string }): Promise<void> {
  const now = new Date().toISOString();
  const where = 'keyId' in which
    ? which.userId !== undefined ? sql`k.id = ${which.keyId} and k.user_id = ${which.userId}` : sql`k.id = ${which.keyId}`
    : sql`k.user_id = ${which.userId}`;
  await sql`insert into deleted_keys (key_hash, key_id, user_id, username, name, hint, created_at, deleted_at)
    select k.key_hash, k.id, k.user_id, u.username, k.name, k.hint, k.created_at, ${now}
    from api_keys k join users u on u.id = k.user_id where ${where}
    on conflict (key_hash) do nothing`.execute(trx);
}

type Row = { key_hash: string; key_id: string; user_id: string; username: string; name: string | null; hint: string; created_at: string; deleted_at: string };

const toRecord = (r: Row): DeletedKeyRecord => ({
  keyId: r.key_id,
  userId: r.user_id,
  username: r.username,
  name: r.name,
  hint: r.hint,
  createdAt: r.created_at,
  deletedAt: r.deleted_at,
  fingerprint: fingerprintOfHash(r.key_hash),
});

export class DeletedKeysRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** The deleted key whose hash starts with `fingerprint` (a range of the primary key). */
  async findByFingerprint(fingerprint: string): Promise<DeletedKeyRecord | undefined> {
    if (!/^[0-9a-f]{16}$/.test(fingerprint)) return undefined;
    const row = await this.db
      .selectFrom('deleted_keys')
      .selectAll()
      .where('key_hash', '>=', fingerprint)
      .where('key_hash', '<', `${fingerprint}g`)
      .limit(1)
      .executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  async findByKeyId(keyId: string): Promise<DeletedKeyRecord | undefined> {
    const row = await this.db.selectFrom('deleted_keys').selectAll().where('key_id', '=', keyId).limit(1).executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  /** One owner's deleted keys, newest deletion first. */
  async listForUser(userId: string, limit = 50): Promise<DeletedKeyRecord[]> {
    const rows = await this.db.selectFrom('deleted_keys').selectAll().where('user_id', '=', userId).orderBy('deleted_at', 'desc').limit(limit).execute();
    return rows.map(toRecord);
  }

  /** Deleted keys with this masked hint (`sk-…wxyz`), newest deletion first. */
  async findByHint(hint: string, limit = 20): Promise<DeletedKeyRecord[]> {
    const rows = await this.db.selectFrom('deleted_keys').selectAll().where('hint', '=', hint).orderBy('deleted_at', 'desc').limit(limit).execute();
    return rows.map(toRecord);
  }
}
