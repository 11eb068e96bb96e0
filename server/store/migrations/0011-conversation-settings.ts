// Web chat: a system prompt per conversation, the tokens of each answer (shown beside it), and
// titles as plain text: titles made before this version kept the first message's markdown
// markers (`**bold**`), so they are derived again from what they hold.
import type { Kysely } from 'kysely';
import { titleFromMessage } from '../conversation-title.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('conversations').addColumn('system_prompt', 'text').execute();
  // One statement per column: SQLite's ALTER TABLE adds one column at a time.
  await db.schema.alterTable('conversation_messages').addColumn('input_tokens', 'integer').execute();
  await db.schema.alterTable('conversation_messages').addColumn('output_tokens', 'integer').execute();

  const titles = db as Kysely<{ conversations: { id: string; title: string } }>;
  for (const row of await titles.selectFrom('conversations').select(['id', 'title']).execute()) {
    const title = titleFromMessage(row.title);
    if (title !== row.title) await titles.updateTable('conversations').set({ title }).where('id', '=', row.id).execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('conversation_messages').dropColumn('output_tokens').execute();
  await db.schema.alterTable('conversation_messages').dropColumn('input_tokens').execute();
  await db.schema.alterTable('conversations').dropColumn('system_prompt').execute();
}
