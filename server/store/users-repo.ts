// Accounts: creation with a scrypt hash, lookup, listing, disabling, and the limits operators set
// for all of a user's keys.
import type { Kysely } from 'kysely';
import { hashPassword, verifyPassword } from '../auth/password-hash.ts';
import { newId } from '../auth/random-tokens.ts';
import { applyUserPatch, NO_USER_LIMITS, type LimitsPatch, type UserLimits } from '../limits/key-limits.ts';
import { tombstoneKeys } from './deleted-keys-repo.ts';
import type { NotifyRevocation } from './keys-repo.ts';
import { budgetColumns, budgetsFromColumns, modelsColumn, modelsFromColumn } from './limit-columns.ts';
import type { Database, UsersTable } from './schema.ts';
import { isRole, type Role } from '../accounts/roles.ts';

export interface User {
  id: string;
  username: string;
  /** The role is operator. */
  isAdmin: boolean;
  role: Role;
  disabled: boolean;
  createdAt: string;
  /** Upper bound for all the user's keys. */
  limits: UserLimits;
}

export const USERNAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

export class UserExistsError extends Error {
  override readonly name = 'UserExistsError';
}

function toUser(row: UsersTable): User {
  return {
    id: row.id,
    username: row.username,
    isAdmin: Number(row.is_admin) === 1,
    role: isRole(row.role) ? row.role : Number(row.is_admin) === 1 ? 'operator' : 'member',
    disabled: Number(row.disabled) === 1,
    createdAt: row.created_at,
    limits: { models: modelsFromColumn(row.models), budgets: budgetsFromColumns(row) },
  };
}

export class UsersRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly notifyRevocation?: NotifyRevocation,
  ) {}

  async create(username: string, password: string, options: { isAdmin?: boolean; role?: Role } = {}): Promise<User> {
    const role: Role = options.role ?? (options.isAdmin ? 'operator' : 'member');
    if (!USERNAME_PATTERN.test(username)) {
      throw new RangeError('A user name is 1-64 characters: letters, digits, and . _ @ - (not first).');
    }
    if (await this.findByName(username)) throw new UserExistsError(`User "${username}" already exists.`);
    const row: UsersTable = {
      id: newId('usr'),
      username,
      password_hash: await hashPassword(password),
      is_admin: role === 'operator' ? 1 : 0,
      role,
      disabled: 0,
      created_at: new Date().toISOString(),
      models: null,
      ...budgetColumns(NO_USER_LIMITS.budgets),
    };
    await this.db.insertInto('users').values(row).execute();
    return toUser(row);
  }

  async count(): Promise<number> {
    const row = await this.db.selectFrom('users').select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async findByName(username: string): Promise<User | undefined> {
    const row = await this.db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
    return row ? toUser(row) : undefined;
  }

  async findById(id: string): Promise<User | undefined> {
    const row = await this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toUser(row) : undefined;
  }

  async list(): Promise<User[]> {
    const rows = await this.db.selectFrom('users').selectAll().orderBy('created_at').orderBy('username').execute();
    return rows.map(toUser);
  }

  /** The user when name and password match an enabled account, else undefined (same answer for every failure). */
  async authenticate(username: string, password: string): Promise<User | undefined> {
    const row = await this.db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
    if (!row) {
      // Spend comparable time so a missing account cannot be told from a wrong password.
      await verifyPassword(password, 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$' + 'A'.repeat(86) + '==');
      return undefined;
    }
    const ok = await verifyPassword(password, row.password_hash);
    return ok && Number(row.disabled) === 0 ? toUser(row) : undefined;
  }

  async setDisabled(id: string, disabled: boolean): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx.updateTable('users').set({ disabled: disabled ? 1 : 0 }).where('id', '=', id).executeTakeFirst();
      const changed = Number(result.numUpdatedRows) > 0;
      if (changed && disabled) await this.notifyRevocation?.(trx, { kind: 'user', id });
      return changed;
    });
  }

  /**
   * Changes the limits of all the user's keys. Instances cache them with each key, so the change
   * travels like a disable: NOTIFY in the same transaction, and every cached key of the user is dropped.
   */
  async setLimits(id: string, patch: Pick<LimitsPatch, 'models' | 'budgets'>): Promise<User | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
      if (!row) return undefined;
      const limits = applyUserPatch(toUser(row).limits, patch);
      await trx.updateTable('users').set({ models: modelsColumn(limits.models), ...budgetColumns(limits.budgets) }).where('id', '=', id).execute();
      await this.notifyRevocation?.(trx, { kind: 'user', id });
      return { ...toUser(row), limits };
    });
  }

  /**
   * Changes the role (is_admin follows it). Cached keys carry no role, but the operator API and the
   * pages read it per request, so nothing else has to travel.
   */
  async setRole(id: string, role: Role): Promise<boolean> {
    const result = await this.db.updateTable('users').set({ role, is_admin: role === 'operator' ? 1 : 0 }).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async setPassword(id: string, password: string): Promise<void> {
    await this.db.updateTable('users').set({ password_hash: await hashPassword(password) }).where('id', '=', id).execute();
  }

  /** True when the password is the user's (disabled or not). */
  async checkPassword(id: string, password: string): Promise<boolean> {
    const row = await this.db.selectFrom('users').select('password_hash').where('id', '=', id).executeTakeFirst();
    return row ? verifyPassword(password, row.password_hash) : false;
  }

  /** Operators that are not disabled (the guards keep at least one). */
  async countActiveOperators(): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('is_admin', '=', 1)
      .where('disabled', '=', 0)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /**
   * Deletes the account: its keys, sessions, conversations and images go with it (foreign keys
   * cascade), its usage rows stay under its id. Returns how many keys were revoked, or undefined
   * for an unknown id. Instances cache keys, so the deletion travels like a disable.
   */
  async delete(id: string): Promise<{ keysRevoked: number } | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const keys = await trx.selectFrom('api_keys').select((eb) => eb.fn.countAll().as('n')).where('user_id', '=', id).executeTakeFirst();
      // Explicit deletes: a database opened without foreign-key enforcement must not keep live keys.
      await tombstoneKeys(trx, { userId: id });
      await trx.deleteFrom('api_keys').where('user_id', '=', id).execute();
      await trx.deleteFrom('sessions').where('user_id', '=', id).execute();
      const result = await trx.deleteFrom('users').where('id', '=', id).executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) return undefined;
      await this.notifyRevocation?.(trx, { kind: 'user', id });
      return { keysRevoked: Number(keys?.n ?? 0) };
    });
  }
}
