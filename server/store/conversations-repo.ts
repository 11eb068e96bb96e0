// The web chat's history: conversations owned by one user, with ordered messages.
import type { Kysely } from 'kysely';
import { newId } from '../auth/random-tokens.ts';
import type { Database } from './schema.ts';

export interface Conversation {
  id: string;
  title: string;
  model: string;
  createdAt: string;
  updatedAt: string;
}

export interface ChatMessage {
  role: 'user' | 'assistant';
  content: string;
  stopped: boolean;
}

export class ConversationsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async create(userId: string, model: string, title: string): Promise<Conversation> {
    const now = new Date().toISOString();
    const row = { id: newId('conv'), user_id: userId, title: title.slice(0, 80) || 'New conversation', model, created_at: now, updated_at: now };
    await this.db.insertInto('conversations').values(row).execute();
    return { id: row.id, title: row.title, model, createdAt: now, updatedAt: now };
  }

  async list(userId: string, limit = 50): Promise<Conversation[]> {
    const rows = await this.db.selectFrom('conversations').selectAll().where('user_id', '=', userId).orderBy('updated_at', 'desc').limit(limit).execute();
    return rows.map((r) => ({ id: r.id, title: r.title, model: r.model, createdAt: r.created_at, updatedAt: r.updated_at }));
  }

  /** Undefined for unknown ids and for other users' conversations alike. */
  async find(userId: string, id: string): Promise<(Conversation & { messages: ChatMessage[] }) | undefined> {
    const row = await this.db.selectFrom('conversations').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    if (!row) return undefined;
    const messages = await this.db.selectFrom('conversation_messages').selectAll().where('conversation_id', '=', id).orderBy('seq').execute();
    return {
      id: row.id,
      title: row.title,
      model: row.model,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      messages: messages.map((m) => ({ role: m.role as ChatMessage['role'], content: m.content, stopped: Number(m.stopped) === 1 })),
    };
  }

  async append(conversationId: string, message: ChatMessage, model?: string): Promise<void> {
    const now = new Date().toISOString();
    await this.db.transaction().execute(async (trx) => {
      const last = await trx
        .selectFrom('conversation_messages')
        .select((eb) => eb.fn.max('seq').as('seq'))
        .where('conversation_id', '=', conversationId)
        .executeTakeFirst();
      await trx
        .insertInto('conversation_messages')
        .values({
          id: newId('msg'),
          conversation_id: conversationId,
          seq: Number(last?.seq ?? 0) + 1,
          role: message.role,
          content: message.content,
          stopped: message.stopped ? 1 : 0,
          created_at: now,
        })
        .execute();
      await trx.updateTable('conversations').set({ updated_at: now, ...(model ? { model } : {}) }).where('id', '=', conversationId).execute();
    });
  }

  async delete(userId: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('conversations').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
