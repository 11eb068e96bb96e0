// The audit log records owner and operator actions (web pages, web JSON API, operator API) with who,
// when, from which address and on what; it never holds a key or token value; /admin shows it.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTestGateway, type TestGateway } from '../helpers/test-app.ts';
import { webLogin } from '../helpers/web-login.ts';

let gateway: TestGateway;
before(async () => {
  gateway = await createTestGateway();
  await gateway.store.users.create('boss', 'password-123', { isAdmin: true });
  await gateway.store.users.create('owner', 'password-123');
});
after(() => gateway.close());

test('owner and operator actions are recorded without any key value; /admin lists them', async () => {
  const secrets: string[] = [];
  const owner = await webLogin(gateway.text, 'owner');
  const json = { cookie: owner.cookie, 'x-csrf-token': owner.csrf };
  const created = await gateway.text.inject({ method: 'POST', url: '/web/api/keys', headers: json, payload: { name: 'laptop', budgetTokensDay: 1000 } });
  assert.equal(created.statusCode, 201);
  const key = created.json() as { id: string; key: string; hint: string };
  secrets.push(key.key);
  assert.equal((await gateway.text.inject({ method: 'PATCH', url: `/web/api/keys/${key.id}`, headers: json, payload: { models: ['demo-chat'] } })).statusCode, 200);
  assert.equal((await gateway.text.inject({ method: 'DELETE', url: `/web/api/keys/${key.id}`, headers: json })).statusCode, 204);

  const token = await gateway.store.operatorTokens.create('robot');
  secrets.push(token.token);
  const viaApi = await gateway.text.inject({ method: 'POST', url: '/admin/api/v1/keys', headers: { authorization: `Bearer ${token.token}` }, payload: { user: 'owner' }, remoteAddress: '198.51.100.7' });
  assert.equal(viaApi.statusCode, 201);
  secrets.push(viaApi.json().key);
  assert.equal((await gateway.text.inject({ method: 'POST', url: '/admin/api/v1/users/owner/disable', headers: { authorization: `Bearer ${token.token}` }, remoteAddress: '198.51.100.7' })).statusCode, 200);

  const entries = await gateway.store.audit.list();
  assert.deepEqual(entries.map((e) => [e.action, e.actor.split(' ')[0]]).reverse(), [
    ['key.create', 'user:owner'],
    ['key.update', 'user:owner'],
    ['key.delete', 'user:owner'],
    ['key.create', `token:${token.id}`],
    ['user.disable', `token:${token.id}`],
  ]);
  assert.equal(entries[0]!.target, 'user:owner');
  assert.equal(entries[0]!.address, '198.51.100.7');
  assert.equal(entries.at(-1)!.target, `key:${key.id} ${key.hint}`);
  assert.deepEqual(entries.at(-2)!.details, { changed: { models: ['demo-chat'] } });
  const stored = JSON.stringify(entries);
  for (const secret of secrets) assert.ok(!stored.includes(secret), 'no key or token value in the audit log');

  const boss = await webLogin(gateway.text, 'boss');
  const page = await gateway.text.inject({ url: '/admin', headers: { cookie: boss.cookie } });
  assert.match(page.payload, /id="audit"/);
  assert.match(page.payload, /user\.disable/);
  assert.match(page.payload, /198\.51\.100\.7/);
  for (const secret of secrets) assert.ok(!page.payload.includes(secret));
});
