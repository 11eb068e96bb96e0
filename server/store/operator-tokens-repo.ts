// Operator API tokens: created with a value returned once, stored as a hash, listed masked, revoked.
// The operator API looks a token up on each call (calls are rare), so a revocation holds at once on
// every instance without a cache to invalidate.
import type { Kysely } from 'kysely';
import { generateOperatorToken, hashApiKey, OPERATOR_TOKEN_PREFIX } from '../auth/api-key-values.ts';
import { newId } from '../auth/random-tokens.ts';
import type { Database, OperatorTokensTable } from './schema.ts';

export interface OperatorToken {
  id: string;
  name: string | null;
  hint: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export interface CreatedOperatorToken extends OperatorToken {
  /** The full value: present only in the result of create. */
  token: string;
}

const COLUMNS = ['id', 'name', 'hint', 'created_at', 'last_used_at'] as const;

function toToken(row: Omit<OperatorTokensTable, 'token_hash'>): OperatorToken {
  return { id: row.id, name: row.name, hint: row.hint, createdAt: row.created_at, lastUsedAt: row.last_used_at };
}

export class OperatorTokensRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async create(name?: string | null): Promise<CreatedOperatorToken> {
    const label = name?.trim() ? name.trim().slice(0, 100) : null;
    const token = generateOperatorToken();
    const row: OperatorTokensTable = { id: newId('opt'), name: label, token_hash: hashApiKey(token), hint: `${OPERATOR_TOKEN_PREFIX}…${token.slice(-4)}`, created_at: new Date().toISOString(), last_used_at: null };
    await this.db.insertInto('operator_tokens').values(row).execute();
    return { ...toToken(row), token };
  }

  /** The token's record when it exists; marks it used (at most once a minute, to spare writes). */
  async authenticate(token: string): Promise<OperatorToken | undefined> {
    const row = await this.db.selectFrom('operator_tokens').select(COLUMNS).where('token_hash', '=', hashApiKey(token)).executeTakeFirst();
    if (!row) return undefined;
    const now = new Date();
    if (!row.last_used_at || now.getTime() - Date.parse(row.last_used_at) > 60_000) {
      await this.db.updateTable('operator_tokens').set({ last_used_at: now.toISOString() }).where('id', '=', row.id).execute();
    }
    return toToken(row);
  }

  async list(): Promise<OperatorToken[]> {
    return (await this.db.selectFrom('operator_tokens').select(COLUMNS).orderBy('created_at', 'desc').execute()).map(toToken);
  }

  async revoke(id: string): Promise<OperatorToken | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('operator_tokens').select(COLUMNS).where('id', '=', id).executeTakeFirst();
      if (!row) return undefined;
      await trx.deleteFrom('operator_tokens').where('id', '=', id).execute();
      return toToken(row);
    });
  }
}
