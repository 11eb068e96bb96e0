// Identity-provider subjects linked to gateway accounts, and the groups the provider reported at
// each sign-in (what group allowlists and role mapping read).
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

export interface LinkedIdentity {
  issuer: string;
  subject: string;
  userId: string;
  groups: string[];
  lastSignInAt: string;
}

function parseGroups(text: string): string[] {
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) ? value.filter((g): g is string => typeof g === 'string') : [];
  } catch {
    return [];
  }
}

export class IdentitiesRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async find(issuer: string, subject: string): Promise<LinkedIdentity | undefined> {
    const row = await this.db.selectFrom('user_identities').selectAll().where('issuer', '=', issuer).where('subject', '=', subject).executeTakeFirst();
    return row ? { issuer: row.issuer, subject: row.subject, userId: row.user_id, groups: parseGroups(row.groups), lastSignInAt: row.last_sign_in_at } : undefined;
  }

  async link(issuer: string, subject: string, userId: string, groups: string[], now: Date): Promise<void> {
    await this.db
      .insertInto('user_identities')
      .values({ issuer, subject, user_id: userId, groups: JSON.stringify(groups), created_at: now.toISOString(), last_sign_in_at: now.toISOString() })
      .execute();
  }

  async noteSignIn(issuer: string, subject: string, groups: string[], now: Date): Promise<void> {
    await this.db.updateTable('user_identities').set({ groups: JSON.stringify(groups), last_sign_in_at: now.toISOString() }).where('issuer', '=', issuer).where('subject', '=', subject).execute();
  }

  /** The groups of each linked account (union over its identities). */
  async groupsByUser(): Promise<Map<string, string[]>> {
    const rows = await this.db.selectFrom('user_identities').select(['user_id', 'groups']).execute();
    const out = new Map<string, string[]>();
    for (const row of rows) out.set(row.user_id, [...new Set([...(out.get(row.user_id) ?? []), ...parseGroups(row.groups)])]);
    return out;
  }

  async groupsOf(userId: string): Promise<string[]> {
    const rows = await this.db.selectFrom('user_identities').select('groups').where('user_id', '=', userId).execute();
    return [...new Set(rows.flatMap((row) => parseGroups(row.groups)))];
  }
}
