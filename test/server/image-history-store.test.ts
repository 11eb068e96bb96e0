// The image history repository on SQLite and PostgreSQL: PNG bytes come back identical, only the
// owner finds a picture, and saving keeps a user's latest N in the same transaction.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ImageHistoryRepo } from '../../server/store/image-history-repo.ts';
import { Store } from '../../server/store/store.ts';
import { createTestDatabase } from '../helpers/postgres-database.ts';

// Bytes that survive no text encoding: every byte value, including NUL and invalid UTF-8.
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(Array.from({ length: 256 }, (_, i) => i))]);

async function exercise(store: Store): Promise<void> {
  const alice = await store.users.create('alice', 'password-123');
  const bob = await store.users.create('bob', 'password-123');
  const [first, second] = await store.imageHistory.save(alice.id, [
    { prompt: 'one', model: 'demo-image', size: '256x256', png: PNG },
    { prompt: 'one', model: 'demo-image', size: '256x256', png: Buffer.from(PNG).reverse() },
  ]);
  assert.ok(first && second);
  const found = await store.imageHistory.find(alice.id, first.id);
  assert.ok(found);
  assert.ok(Buffer.isBuffer(found.png));
  assert.deepEqual(found.png, PNG);
  assert.equal(found.byteLength, PNG.length);
  assert.equal(await store.imageHistory.find(bob.id, first.id), undefined, 'another user finds nothing');
  assert.equal(await store.imageHistory.delete(bob.id, first.id), false, 'nor deletes it');

  const listed = await store.imageHistory.list(alice.id, { limit: 10, offset: 0 });
  assert.equal(listed.total, 2);
  assert.deepEqual(listed.entries.map((e) => e.id), [first.id, second.id]);
  assert.ok(!('png' in listed.entries[0]!), 'the list carries no bytes');

  // Keep 3: after two more generations only the newest three pictures remain, bob's untouched.
  const small = new ImageHistoryRepo(store.database.db, 3);
  await small.save(bob.id, [{ prompt: 'bob', model: 'demo-image', size: '256x256', png: PNG }]);
  const [third] = await small.save(alice.id, [{ prompt: 'two', model: 'demo-image', size: '256x256', png: PNG }]);
  await new Promise((resolve) => setTimeout(resolve, 5));
  const [fourth, fifth] = await small.save(alice.id, [
    { prompt: 'three', model: 'demo-image', size: '256x256', png: PNG },
    { prompt: 'three', model: 'demo-image', size: '256x256', png: PNG },
  ]);
  const kept = await store.imageHistory.list(alice.id, { limit: 10, offset: 0 });
  assert.deepEqual(kept.entries.map((e) => e.id), [fourth!.id, fifth!.id, third!.id]);
  assert.equal(kept.total, 3);
  assert.equal((await store.imageHistory.list(bob.id, { limit: 10, offset: 0 })).total, 1);

  assert.equal(await store.imageHistory.delete(alice.id, third!.id), true);
  assert.equal(await store.imageHistory.find(alice.id, third!.id), undefined);
}

describe('image history store', () => {
  test('SQLite', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gwctl-images-'));
    const store = await Store.open(`sqlite://${join(dir, 'gateway.db')}`);
    try {
      await exercise(store);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('PostgreSQL', async () => {
    const database = await createTestDatabase('images');
    const store = await Store.open(database.url);
    try {
      await exercise(store);
    } finally {
      await store.close();
      await database.drop();
    }
  });
});
