// Device sign-in on PostgreSQL with several instances: an access token cached by one instance stops
// working there as soon as another process ends the sign-in (a revocation, a reused refresh token,
// the account disabled), through the same NOTIFY as a key deletion; the store's queries run on
// PostgreSQL as on SQLite (rotation, reuse detection, migrations 0017 and 0018).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { groupModelsLoader } from '../../server/accounts/group-models.ts';
import { KeyAuthenticator } from '../../server/auth/key-authenticator.ts';
import { PgRevocationFeed } from '../../server/cluster/pg-revocation-feed.ts';
import { generateAccessToken, generateRefreshToken } from '../../server/sign-in/sign-in-secrets.ts';
import type { IssuedTokens } from '../../server/store/sign-in-grants-repo.ts';
import { Store } from '../../server/store/store.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres-database.ts';
import { waitFor } from '../helpers/wait-for.ts';

let database: TestDatabase | undefined;
let other: Store;
let instance: Store;
let authenticator: KeyAuthenticator;
let feed: PgRevocationFeed;

before(async () => {
  database = await createTestDatabase('signin').catch(() => undefined);
  if (!database) return;
  other = await Store.open(database.url);
  instance = await Store.open(database.url);
  feed = new PgRevocationFeed(database.url);
  authenticator = new KeyAuthenticator(instance.keys, instance.users, { feeds: [feed] }, instance.signInGrants, groupModelsLoader(instance));
  await authenticator.start();
});

after(async () => {
  await authenticator?.close();
  await instance?.close();
  await other?.close();
  await database?.drop();
});

function tokens(now = new Date()): IssuedTokens {
  return { accessToken: generateAccessToken(), accessExpiresAt: new Date(now.getTime() + 3600_000), refreshToken: generateRefreshToken(), refreshExpiresAt: new Date(now.getTime() + 86_400_000) };
}

async function refusedSoon(token: string, what: string): Promise<void> {
  await waitFor(async () => authenticator.authenticate(token).then(() => false, () => true), { timeoutMs: 15_000, what });
}

test('a sign-in ended by another process stops its cached access token on this instance', async (t) => {
  if (!database) return t.skip('PostgreSQL is not reachable');
  await waitFor(() => feed.connected, { what: 'the LISTEN feed' });
  const user = await other.users.create('pg-signin', 'password-123');
  const first = tokens();
  const grant = await other.signInGrants.create(user.id, 'gwctl', first, new Date());
  assert.equal((await authenticator.authenticate(first.accessToken)).userId, user.id);
  const lookups = authenticator.databaseLookups;
  await authenticator.authenticate(first.accessToken);
  assert.equal(authenticator.databaseLookups, lookups, 'served from the cache');
  assert.equal(await other.signInGrants.revoke(grant.id, 'test'), true);
  await refusedSoon(first.accessToken, 'the revocation to reach the instance');
});

test('rotation on PostgreSQL: a reused refresh token ends the family everywhere', async (t) => {
  if (!database) return t.skip('PostgreSQL is not reachable');
  const user = await other.users.create('pg-rotate', 'password-123');
  const first = tokens();
  await other.signInGrants.create(user.id, 'claude-cli', first, new Date());
  const second = tokens();
  assert.equal((await other.signInGrants.rotate(first.refreshToken, second, new Date())).kind, 'ok');
  assert.equal((await authenticator.authenticate(second.accessToken)).userId, user.id);
  assert.equal((await other.signInGrants.rotate(first.refreshToken, tokens(), new Date())).kind, 'reused');
  await refusedSoon(second.accessToken, 'the family revocation to reach the instance');
  assert.equal((await other.signInGrants.rotate(second.refreshToken, tokens(), new Date())).kind, 'revoked');
});

test('group allowlists on PostgreSQL narrow the cached models', async (t) => {
  if (!database) return t.skip('PostgreSQL is not reachable');
  const user = await other.users.create('pg-groups', 'password-123');
  await other.identities.link('https://idp.test', 'pg-groups', user.id, ['eng'], new Date());
  await other.groupPolicies.set('eng', ['demo-chat']);
  const issued = tokens();
  await other.signInGrants.create(user.id, 'gwctl', issued, new Date());
  assert.deepEqual((await authenticator.authenticate(issued.accessToken)).userLimits.models, ['demo-chat']);
  assert.equal((await other.users.findById(user.id))!.role, 'member');
});
