// Several instances on PostgreSQL: a key's limits are cached with it, and an edit made by another
// process reaches every instance's cache through the same NOTIFY as a deletion (no polling).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { KeyAuthenticator } from '../../server/auth/key-authenticator.ts';
import { PgRevocationFeed } from '../../server/cluster/pg-revocation-feed.ts';
import { Store } from '../../server/store/store.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres-database.ts';
import { waitFor } from '../helpers/wait-for.ts';

let database: TestDatabase | undefined;
let editor: Store;
let instance: Store;
let authenticator: KeyAuthenticator;
let feed: PgRevocationFeed;

before(async () => {
  database = await createTestDatabase('keylimits').catch(() => undefined);
  if (!database) return;
  editor = await Store.open(database.url);
  instance = await Store.open(database.url);
  feed = new PgRevocationFeed(database.url);
  authenticator = new KeyAuthenticator(instance.keys, instance.users, { feeds: [feed] });
  await authenticator.start();
});

after(async () => {
  await authenticator?.close();
  await instance?.close();
  await editor?.close();
  await database?.drop();
});

test('an edit in another process reaches the cached auth context of an instance', async (t) => {
  if (!database) return t.skip('PostgreSQL is not reachable');
  const user = await editor.users.create('pg-limits', 'password-123');
  const created = await editor.keys.create(user.id, 'edited');
  await waitFor(() => feed.connected, { what: 'the LISTEN feed' });
  assert.equal((await authenticator.authenticate(created.key)).limits.models, null);
  const lookups = authenticator.databaseLookups;
  await authenticator.authenticate(created.key);
  assert.equal(authenticator.databaseLookups, lookups, 'served from the cache');
  await editor.keys.updateLimits(created.id, { models: ['demo-chat'], budgets: { tokensDay: 10 } });
  const context = await waitFor(async () => {
    const current = await authenticator.authenticate(created.key);
    return current.limits.models?.[0] === 'demo-chat' ? current : undefined;
  }, { timeoutMs: 15_000, what: 'the edit to reach the instance' });
  assert.equal(context.limits.budgets.tokensDay, 10);
});
