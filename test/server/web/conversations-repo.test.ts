// The chat history store on SQLite and, when the machine's PostgreSQL answers, on PostgreSQL: the
// search over titles and message text (case, LIKE wildcards taken literally, owner only), renames,
// system prompts, per-answer tokens and replacing the last answer.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Store } from '../../../server/store/store.ts';
import { createTestDatabase } from '../../helpers/postgres-database.ts';

async function exercise(store: Store): Promise<void> {
  const alice = await store.users.create('alice', 'password-123');
  const bob = await store.users.create('bob', 'password-123');
  const repo = store.conversations;
  const first = await repo.create(alice.id, 'demo-chat', 'Rust lifetimes', 'Answer in French.');
  await repo.append(first.id, { role: 'user', content: 'What is 100% of a Borrow?', stopped: false });
  await repo.append(first.id, { role: 'assistant', content: 'An answer about ownership.', stopped: false, usage: { inputTokens: 12, outputTokens: 34 } });
  const second = await repo.create(alice.id, 'demo-chat', 'Shopping list');
  await repo.append(second.id, { role: 'user', content: 'eggs_and_milk', stopped: false });
  const bobs = await repo.create(bob.id, 'demo-chat', 'Rust for bob');
  await repo.append(bobs.id, { role: 'user', content: 'ownership', stopped: false });

  const titles = async (search: string) => (await repo.list(alice.id, { search })).map((c) => c.title).sort();
  assert.deepEqual(await titles(''), ['Rust lifetimes', 'Shopping list']);
  assert.deepEqual(await titles('rust'), ['Rust lifetimes'], 'title, any case; never another user’s');
  assert.deepEqual(await titles('OWNERSHIP'), ['Rust lifetimes'], 'message text, any case');
  assert.deepEqual(await titles('100%'), ['Rust lifetimes'], '% is a literal');
  assert.deepEqual(await titles('%'), ['Rust lifetimes']);
  assert.deepEqual(await titles('s_a'), ['Shopping list'], '_ is a literal');
  assert.deepEqual(await titles('_'), ['Shopping list']);
  assert.deepEqual(await titles('no such words'), []);
  assert.deepEqual((await repo.list(bob.id, { search: 'lifetimes' })).length, 0);

  const found = (await repo.find(alice.id, first.id))!;
  assert.equal(found.systemPrompt, 'Answer in French.');
  assert.deepEqual(found.messages.map((m) => m.usage), [undefined, { inputTokens: 12, outputTokens: 34 }]);
  assert.equal(await repo.find(bob.id, first.id), undefined, 'another user’s conversation is not found');

  assert.equal(await repo.update(bob.id, first.id, { title: 'stolen' }), false);
  assert.equal(await repo.update(alice.id, 'conv_nosuch', { title: 'x' }), false);
  assert.equal(await repo.update(alice.id, first.id, { title: 'Borrowing', systemPrompt: '' }), true);
  const renamed = (await repo.find(alice.id, first.id))!;
  assert.equal(renamed.title, 'Borrowing');
  assert.equal(renamed.systemPrompt, '');

  assert.equal(await repo.removeLastAnswer(second.id), false, 'the last message is a question: nothing removed');
  assert.equal(await repo.removeLastAnswer(first.id), true);
  assert.deepEqual((await repo.find(alice.id, first.id))!.messages.map((m) => m.role), ['user']);

  assert.equal(await repo.delete(bob.id, first.id), false);
  assert.equal(await repo.delete(alice.id, first.id), true);
  assert.equal(await repo.find(alice.id, first.id), undefined);
}

test('conversations on SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gwctl-conv-'));
  const store = await Store.open(`sqlite://${join(dir, 'gateway.db')}`);
  try {
    await exercise(store);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('conversations on PostgreSQL', async (t) => {
  let database;
  try {
    database = await createTestDatabase('conversations');
  } catch {
    t.skip('no PostgreSQL at 127.0.0.1:5432');
    return;
  }
  const store = await Store.open(database.url);
  try {
    await exercise(store);
  } finally {
    await store.close();
    await database.drop();
  }
});
