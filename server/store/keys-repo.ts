// API keys: created with a value returned once, stored as a hash, listed masked, deleted by their
// owner; their optional limits (expiry, models, rate, budgets) are kept beside them.
import type { Kysely, Transaction } from 'kysely';
import type { RevocationEvent } from '../cluster/revocation.ts';
import { fingerprintOfHash, tombstoneKeys } from './deleted-keys-repo.ts';
import { apiKeyHint, generateApiKey, hashApiKey } from '../auth/api-key-values.ts';
import { newId } from '../auth/random-tokens.ts';
import { NO_LIMITS, applyPatch, type KeyLimits, type LimitsPatch } from '../limits/key-limits.ts';
import { budgetColumns, budgetsFromColumns, modelsColumn, modelsFromColumn } from './limit-columns.ts';
import type { ApiKeysTable, Database } from './schema.ts';

/** Everything about a key except its value, which is never stored. */
export interface ApiKeyRecord {
  id: string;
  userId: string;
  name: string | null;
  hint: string;
  createdAt: string;
  lastUsedAt: string | null;
  limits: KeyLimits;
}

export interface CreatedApiKey extends ApiKeyRecord {
  /** The full value: present only in the result of create. */
  key: string;
}

export const KEY_NAME_MAX_LENGTH = 100;

function limitsOf(row: Omit<ApiKeysTable, 'key_hash'>): KeyLimits {
  return {
    expiresAt: row.expires_at,
    models: modelsFromColumn(row.models),
    rateLimit: row.rate_limit === null ? null : Number(row.rate_limit),
    budgets: budgetsFromColumns(row),
  };
}

function limitColumns(limits: KeyLimits) {
  return { expires_at: limits.expiresAt, models: modelsColumn(limits.models), rate_limit: limits.rateLimit, ...budgetColumns(limits.budgets) };
}

function toRecord(row: Omit<ApiKeysTable, 'key_hash'>): ApiKeyRecord {
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    hint: row.hint,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    limits: limitsOf(row),
  };
}

const PUBLIC_COLUMNS = [
  'id',
  'user_id',
  'name',
  'hint',
  'created_at',
  'last_used_at',
  'expires_at',
  'models',
  'rate_limit',
  'budget_tokens_day',
  'budget_tokens_month',
  'budget_requests_day',
  'budget_requests_month',
  'budget_cost_day',
  'budget_cost_month',
] as const;

export type NotifyRevocation = (trx: Transaction<Database>, event: RevocationEvent) => Promise<void>;

export class KeysRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly notifyRevocation?: NotifyRevocation,
  ) {}

  async create(userId: string, name?: string | null, limits: KeyLimits = NO_LIMITS): Promise<CreatedApiKey> {
    const label = name?.trim() ? name.trim() : null;
    if (label && label.length > KEY_NAME_MAX_LENGTH) {
      throw new RangeError(`A key name has at most ${KEY_NAME_MAX_LENGTH} characters.`);
    }
    const key = generateApiKey();
    const row: ApiKeysTable = {
      id: newId('key'),
      user_id: userId,
      name: label,
      key_hash: hashApiKey(key),
      hint: apiKeyHint(key),
      created_at: new Date().toISOString(),
      last_used_at: null,
      ...limitColumns(limits),
    };
    await this.db.insertInto('api_keys').values(row).execute();
    return { ...toRecord(row), key };
  }

  async findByValue(key: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.db
      .selectFrom('api_keys')
      .select(PUBLIC_COLUMNS)
      .where('key_hash', '=', hashApiKey(key))
      .executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  /** Newest first; a page of them when `page` is given. */
  async listForUser(userId: string, page?: { limit: number; offset: number }): Promise<ApiKeyRecord[]> {
    let query = this.db
      .selectFrom('api_keys')
      .select(PUBLIC_COLUMNS)
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc');
    if (page) query = query.limit(page.limit).offset(page.offset);
    const rows = await query.execute();
    return rows.map(toRecord);
  }

  async countForUser(userId: string): Promise<number> {
    const row = await this.db.selectFrom('api_keys').select((eb) => eb.fn.countAll<number | string>().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async listAll(): Promise<ApiKeyRecord[]> {
    const rows = await this.db.selectFrom('api_keys').select(PUBLIC_COLUMNS).orderBy('created_at', 'desc').execute();
    return rows.map(toRecord);
  }

  /** Keys with this masked hint (`sk-…wxyz`); several keys can share one. */
  async findByHint(hint: string, limit = 20): Promise<ApiKeyRecord[]> {
    const rows = await this.db.selectFrom('api_keys').select(PUBLIC_COLUMNS).where('hint', '=', hint).orderBy('created_at', 'desc').limit(limit).execute();
    return rows.map(toRecord);
  }

  /** The key whose SHA-256 starts with `fingerprint` (16 hex digits; a range of the unique hash index). */
  async findByFingerprint(fingerprint: string): Promise<ApiKeyRecord | undefined> {
    if (!/^[0-9a-f]{16}$/.test(fingerprint)) return undefined;
    const row = await this.db
      .selectFrom('api_keys')
      .select(PUBLIC_COLUMNS)
      .where('key_hash', '>=', fingerprint)
      .where('key_hash', '<', `${fingerprint}g`)
      .executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  /** How the request log and the support desk name the key's value: the first 16 hex digits of its hash. */
  async fingerprintOf(id: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('api_keys').select('key_hash').where('id', '=', id).executeTakeFirst();
    return row ? fingerprintOfHash(row.key_hash) : undefined;
  }

  async findById(id: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.db.selectFrom('api_keys').select(PUBLIC_COLUMNS).where('id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  /**
   * Changes a key's limits (only the owner's key when `ownerId` is given). Instances cache limits
   * with the key, so the change travels like a deletion: NOTIFY in the same transaction.
   */
  async updateLimits(id: string, patch: LimitsPatch, ownerId?: string): Promise<ApiKeyRecord | undefined> {
    return this.db.transaction().execute(async (trx) => {
      let query = trx.selectFrom('api_keys').select(PUBLIC_COLUMNS).where('id', '=', id);
      if (ownerId !== undefined) query = query.where('user_id', '=', ownerId);
      const row = await query.executeTakeFirst();
      if (!row) return undefined;
      const limits = applyPatch(limitsOf(row), patch);
      await trx.updateTable('api_keys').set(limitColumns(limits)).where('id', '=', id).execute();
      await this.notifyRevocation?.(trx, { kind: 'key', id });
      return { ...toRecord(row), limits };
    });
  }

  /** Deletes a key only when it belongs to the user; false for unknown ids and other users' keys alike. */
  async deleteOwned(userId: string, id: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await tombstoneKeys(trx, { keyId: id, userId });
      const result = await trx.deleteFrom('api_keys').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
      const deleted = Number(result.numDeletedRows) > 0;
      if (deleted) await this.notifyRevocation?.(trx, { kind: 'key', id });
      return deleted;
    });
  }

  /** Operator deletion regardless of owner. */
  async deleteById(id: string): Promise<ApiKeyRecord | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('api_keys').select(PUBLIC_COLUMNS).where('id', '=', id).executeTakeFirst();
      if (!row) return undefined;
      await tombstoneKeys(trx, { keyId: id });
      await trx.deleteFrom('api_keys').where('id', '=', id).execute();
      await this.notifyRevocation?.(trx, { kind: 'key', id });
      return toRecord(row);
    });
  }
}
