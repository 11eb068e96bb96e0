// Conversation titles are plain text: derived from the first message with its markdown markers
// taken out, and migration 0011 rewrites titles saved before it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { titleFromMessage } from '../../../server/store/conversation-title.ts';
import { migrationProvider } from '../../../server/store/migrations/index.ts';
import { Store } from '../../../server/store/store.ts';

test('titles drop markdown markers and keep the words', () => {
  const cases: Array<[string, string]> = [
    ['Explain **gateways** briefly', 'Explain gateways briefly'],
    ['# Title\n- a *b* `c`', 'Title a b c'],
    ['```js\nconst x = 1;\n```', 'const x = 1;'],
    ['[docs](https://example.com) and ![a cat](cat.png)', 'docs and a cat'],
    ['> quoted __under__ ~~struck~~', 'quoted under struck'],
    ['1. first\n2) second', 'first second'],
    ['snake_case_name and 2*3*4', 'snake_case_name and 2*3*4'],
    ['<b>tags stay text</b>', '<b>tags stay text</b>'],
    ['   \n  ', 'New conversation'],
  ];
  for (const [message, title] of cases) assert.equal(titleFromMessage(message), title, JSON.stringify(message));
});

test('long first messages are cut at a word, with an ellipsis', () => {
  const title = titleFromMessage('word '.repeat(40));
  assert.ok(title.length <= 80, title);
  assert.match(title, /^word( word)+…$/);
  assert.equal(titleFromMessage('x'.repeat(200)).length, 80);
});

test('migration 0011 rewrites titles saved with markdown and adds the new columns', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gwctl-migrate-'));
  const path = join(dir, 'gateway.db');
  try {
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new BetterSqlite3(path) }) });
    const migrated = await new Migrator({ db, provider: migrationProvider }).migrateTo('0010-image-history');
    assert.equal(migrated.error, undefined);
    const now = new Date().toISOString();
    await db.insertInto('users').values({ id: 'u1', username: 'old', password_hash: 'x', created_at: now }).execute();
    const row = { user_id: 'u1', model: 'demo-chat', created_at: now, updated_at: now };
    await db.insertInto('conversations').values([{ id: 'c1', title: 'Explain **gateways** briefly', ...row }, { id: 'c2', title: 'Plain already', ...row }]).execute();
    await db.destroy();

    const store = await Store.open(`sqlite://${path}`);
    try {
      const titles = (await store.conversations.list('u1')).map((c) => c.title).sort();
      assert.deepEqual(titles, ['Explain gateways briefly', 'Plain already']);
      assert.equal((await store.conversations.find('u1', 'c1'))!.systemPrompt, '');
    } finally {
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
