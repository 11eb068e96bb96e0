// The web chat's history: conversations owned by one user, with ordered messages, a system prompt
// each, and a search over titles and message text.
import { sql, type Kysely } from 'kysely';
import { newId } from '../auth/random-tokens.ts';
import { UNTITLED } from './conversation-title.ts';
import type { Database } from './schema.ts';

export interface Conversation {
  id: string;
  title: string;
  model: string;
  createdAt: string;
  updatedAt: string;
}

export interface ConversationDetail extends Conversation {
  /** '' when none. */
  systemPrompt: string;
  messages: ChatMessage[];
}

export interface ChatMessage {
  role: 'user' | 'assistant';
  content: string;
  stopped: boolean;
  /** The turn's tokens, on assistant messages whose provider reported them. */
  usage?: { inputTokens: number; outputTokens: number };
}

export interface ConversationChanges {
  title?: string;
  systemPrompt?: string;
}

type ConversationRow = Pick<Database['conversations'], 'id' | 'title' | 'model' | 'created_at' | 'updated_at'>;

function summary(row: ConversationRow): Conversation {
  return { id: row.id, title: row.title, model: row.model, createdAt: row.created_at, updatedAt: row.updated_at };
}

/** A LIKE pattern matching `text` anywhere, its own % and _ taken literally (escape character \). */
function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export class ConversationsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async create(userId: string, model: string, title: string, systemPrompt = ''): Promise<Conversation> {
    const now = new Date().toISOString();
    const row = { id: newId('conv'), user_id: userId, title: title || UNTITLED, model, system_prompt: systemPrompt || null, created_at: now, updated_at: now };
    await this.db.insertInto('conversations').values(row).execute();
    return summary(row);
  }

  /**
   * The user's conversations, most recently active first; with `search`, those whose title or any
   * message contains it (ignoring case; in SQLite only for ASCII letters).
   */
  async list(userId: string, { search = '', limit = 50 }: { search?: string; limit?: number } = {}): Promise<Conversation[]> {
    let query = this.db.selectFrom('conversations').select(['id', 'title', 'model', 'created_at', 'updated_at']).where('user_id', '=', userId);
    if (search.trim() !== '') {
      const pattern = containsPattern(search.trim());
      query = query.where((eb) =>
        eb.or([
          sql<boolean>`lower(conversations.title) like ${pattern} escape '\\'`,
          eb.exists(
            eb
              .selectFrom('conversation_messages')
              .select(sql`1`.as('hit'))
              .whereRef('conversation_messages.conversation_id', '=', 'conversations.id')
              .where(sql<boolean>`lower(conversation_messages.content) like ${pattern} escape '\\'`),
          ),
        ]),
      );
    }
    const rows = await query.orderBy('updated_at', 'desc').limit(limit).execute();
    return rows.map(summary);
  }

  /** Undefined for unknown ids and for other users' conversations alike. */
  async find(userId: string, id: string): Promise<ConversationDetail | undefined> {
    const row = await this.db.selectFrom('conversations').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    if (!row) return undefined;
    const messages = await this.db.selectFrom('conversation_messages').selectAll().where('conversation_id', '=', id).orderBy('seq').execute();
    return {
      ...summary(row),
      systemPrompt: row.system_prompt ?? '',
      messages: messages.map((m) => ({
        role: m.role as ChatMessage['role'],
        content: m.content,
        stopped: Number(m.stopped) === 1,
        ...(m.output_tokens === null ? {} : { usage: { inputTokens: Number(m.input_tokens ?? 0), outputTokens: Number(m.output_tokens) } }),
      })),
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
          input_tokens: message.usage?.inputTokens ?? null,
          output_tokens: message.usage?.outputTokens ?? null,
          created_at: now,
        })
        .execute();
      await trx.updateTable('conversations').set({ updated_at: now, ...(model ? { model } : {}) }).where('id', '=', conversationId).execute();
    });
  }

  /** Renames or sets the system prompt ('' removes it); false for unknown ids and other users' conversations. */
  async update(userId: string, id: string, changes: ConversationChanges): Promise<boolean> {
    const set = {
      ...(changes.title === undefined ? {} : { title: changes.title }),
      ...(changes.systemPrompt === undefined ? {} : { system_prompt: changes.systemPrompt || null }),
    };
    if (Object.keys(set).length === 0) return (await this.find(userId, id)) !== undefined;
    const result = await this.db.updateTable('conversations').set(set).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Removes the last message if it is an answer (to answer its question again); true if one was removed. */
  async removeLastAnswer(conversationId: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const last = await trx.selectFrom('conversation_messages').select(['id', 'role']).where('conversation_id', '=', conversationId).orderBy('seq', 'desc').limit(1).executeTakeFirst();
      if (last?.role !== 'assistant') return false;
      await trx.deleteFrom('conversation_messages').where('id', '=', last.id).execute();
      return true;
    });
  }

  async delete(userId: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('conversations').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
