import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ELSEWHERE_CHECK_MS } from '../../server/auth/key-authenticator.ts';
import { GatewayError } from '../../server/errors/gateway-error.ts';
import { Store } from '../../server/store/store.ts';
import { createTestGateway, type TestGateway } from '../helpers/test-app.ts';

let gw: TestGateway;
before(async () => {
  gw = await createTestGateway();
});
after(() => gw.close());

test('a key is sk- plus 48 base62 characters, distinct each time, with a masked hint', async () => {
  const user = await gw.store.users.create('alice', 'password-123');
  const a = await gw.store.keys.create(user.id, 'laptop');
  const b = await gw.store.keys.create(user.id);
  assert.match(a.key, /^sk-[0-9A-Za-z]{48}$/);
  assert.notEqual(a.key, b.key);
  assert.equal(a.hint, `sk-…${a.key.slice(-4)}`);
  assert.equal(a.name, 'laptop');
  assert.equal(b.name, null);
});

test('the full key value is stored nowhere: not in any column, not in the database files', async () => {
  const user = await gw.store.users.create('bob', 'password-123');
  const created = await gw.store.keys.create(user.id, 'ci');
  const listed = await gw.store.keys.listForUser(user.id);
  assert.ok(!JSON.stringify(listed).includes(created.key));
  assert.ok(!JSON.stringify(listed).includes(created.key.slice(3, 20)));
  await gw.store.database.db.selectFrom('api_keys').selectAll().execute().then((rows) => {
    assert.ok(!JSON.stringify(rows).includes(created.key.slice(3)));
  });
  for (const file of readdirSync(gw.dataDir)) {
    const bytes = readFileSync(join(gw.dataDir, file));
    assert.equal(bytes.indexOf(created.key.slice(3)), -1, `${file} holds the key`);
  }
});

test('owner-only deletion: another user deleting my key id changes nothing', async () => {
  const owner = await gw.userWithKey('carol');
  const other = await gw.userWithKey('dave');
  assert.equal(await gw.store.keys.deleteOwned(other.userId, owner.keyId), false);
  assert.equal((await gw.store.keys.listForUser(owner.userId)).length, 1);
  assert.deepEqual((await gw.store.keys.listForUser(other.userId)).map((k) => k.id), [other.keyId]);
  assert.equal(await gw.store.keys.deleteOwned(owner.userId, owner.keyId), true);
  assert.equal((await gw.store.keys.listForUser(owner.userId)).length, 0);
});

test('a deletion by another process is seen despite the cache once the data_version check window passed', async () => {
  const { key, keyId } = await gw.userWithKey('erin');
  const context = await gw.deps.authenticator.authenticate(key);
  assert.equal(context.keyId, keyId);
  assert.equal((await gw.deps.authenticator.authenticate(key)).keyId, keyId, 'served from the cache');
  const otherProcess = await Store.open(gw.databaseUrl);
  try {
    assert.ok(await otherProcess.keys.deleteById(keyId));
  } finally {
    await otherProcess.close();
  }
  // data_version is read at most every ELSEWHERE_CHECK_MS; after that window the deletion is seen.
  await sleep(ELSEWHERE_CHECK_MS + 1);
  await assert.rejects(gw.deps.authenticator.authenticate(key), (error: GatewayError) => error.status === 401 && error.code === 'invalid_api_key');
});

test('a local deletion is forgotten at once, and a disabled owner gets 401', async () => {
  const { key, keyId, userId } = await gw.userWithKey('frank');
  await gw.deps.authenticator.authenticate(key);
  await gw.store.keys.deleteOwned(userId, keyId);
  gw.deps.authenticator.forgetKey(keyId);
  await assert.rejects(gw.deps.authenticator.authenticate(key), /unknown, incomplete or was deleted/);

  const second = await gw.userWithKey('grace');
  await gw.deps.authenticator.authenticate(second.key);
  await gw.store.users.setDisabled(second.userId, true);
  gw.deps.authenticator.forgetUser(second.userId);
  await assert.rejects(gw.deps.authenticator.authenticate(second.key), (error: GatewayError) => error.code === 'account_disabled');
});

test('passwords are scrypt hashes; wrong passwords and unknown users fail alike', async () => {
  await gw.store.users.create('heidi', 'correct horse');
  const row = await gw.store.database.db.selectFrom('users').selectAll().where('username', '=', 'heidi').executeTakeFirstOrThrow();
  assert.match(row.password_hash, /^scrypt\$16384\$8\$1\$/);
  assert.ok(!row.password_hash.includes('correct horse'));
  assert.equal((await gw.store.users.authenticate('heidi', 'correct horse'))?.username, 'heidi');
  assert.equal(await gw.store.users.authenticate('heidi', 'wrong'), undefined);
  assert.equal(await gw.store.users.authenticate('nobody', 'wrong'), undefined);
  await assert.rejects(gw.store.users.create('heidi', 'x'), /already exists/);
  await assert.rejects(gw.store.users.create('bad name!', 'x'), RangeError);
});
