// The audit log of operator and owner actions. Entries are written after the change succeeded and
// are never edited. Callers pass ids, masked hints and limits, never a key or token value.
import { sql, type Kysely } from 'kysely';
import { newId } from '../auth/random-tokens.ts';
import type { AuditLogTable, Database } from './schema.ts';

export type AuditAction =
  | 'key.create'
  | 'key.update'
  | 'key.delete'
  | 'user.create'
  | 'user.disable'
  | 'user.enable'
  | 'user.limits'
  | 'user.delete'
  | 'user.password'
  | 'session.revoke'
  | 'token.create'
  | 'token.revoke'
  | 'price.set'
  | 'price.delete'
  | 'signin.approve'
  | 'signin.deny'
  | 'signin.revoke'
  | 'user.role'
  | 'group.set'
  | 'group.delete';

export interface AuditEntry {
  /** `user:<name>` (web pages), `token:<hint>` (operator API), `cli:<account>@<host>` (gwctl admin). */
  actor: string;
  /** The client's address, or `local` for the command line. */
  address: string;
  action: AuditAction;
  /** `key:<id> <hint>`, `user:<name>`, `token:<id> <hint>`, `price:<model>[ provider <name>][ from <date>]`. */
  target: string;
  /** What changed (limits, flags); never a secret. */
  details?: Record<string, unknown>;
}

export interface AuditRecord extends AuditEntry {
  id: string;
  at: string;
}

export class AuditRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async record(entry: AuditEntry): Promise<void> {
    const row: AuditLogTable = {
      id: newId('aud'),
      at: new Date().toISOString(),
      actor: entry.actor,
      address: entry.address,
      action: entry.action,
      target: entry.target,
      details: entry.details ? JSON.stringify(entry.details) : null,
    };
    await this.db.insertInto('audit_log').values(row).execute();
  }

  /** Newest first. `target` matches a whole target or its first word (`key:<id>` finds `key:<id> sk-…wxyz`). */
  async list(options: { limit?: number; action?: string; actor?: string; target?: string } = {}): Promise<AuditRecord[]> {
    let q = this.db.selectFrom('audit_log').selectAll();
    if (options.action) q = q.where('action', '=', options.action);
    if (options.actor) q = q.where('actor', '=', options.actor);
    const target = options.target;
    // A prefix compared with substr, not LIKE: ids hold `_`, a LIKE wildcard.
    if (target) q = q.where((eb) => eb.or([eb('target', '=', target), sql<boolean>`substr(target, 1, ${target.length + 1}) = ${`${target} `}`]));
    const rows = await q.orderBy('at', 'desc').orderBy('id', 'desc').limit(options.limit ?? 100).execute();
    return rows.map((r) => ({
      id: r.id,
      at: r.at,
      actor: r.actor,
      address: r.address,
      action: r.action as AuditAction,
      target: r.target,
      details: r.details === null ? undefined : (JSON.parse(r.details) as Record<string, unknown>),
    }));
  }
}
