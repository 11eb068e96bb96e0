// Operator API, accounts: DELETE a user (keys revoked at once, usage kept, audited), POST a password
// (generated once or given; sessions end), the last-operator guard, disabling twice audits once.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { bearer, createTestGateway, type TestGateway } from '../helpers/test-app.ts';

describe('operator API: accounts', () => {
  let gateway: TestGateway;
  let token: string;
  before(async () => {
    gateway = await createTestGateway();
    await gateway.store.users.create('root', 'password-123', { isAdmin: true });
    token = (await gateway.store.operatorTokens.create('tests')).token;
  });
  after(() => gateway?.close());

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    gateway.text.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

  test('DELETE /users/:name revokes the keys at once, keeps the usage, is audited; unknown names 404', async () => {
    const { userId, key } = await gateway.userWithKey('ivy');
    assert.equal((await gateway.text.inject({ url: '/v1/models', headers: bearer(key) })).statusCode, 200);
    const deleted = await call('DELETE', '/admin/api/v1/users/ivy');
    assert.equal(deleted.statusCode, 200, deleted.payload);
    assert.deepEqual({ deleted: deleted.json().deleted, keysRevoked: deleted.json().keysRevoked, id: deleted.json().user.id }, { deleted: true, keysRevoked: 1, id: userId });
    assert.equal((await gateway.text.inject({ url: '/v1/models', headers: bearer(key) })).statusCode, 401);
    const audit = await gateway.store.audit.list({ action: 'user.delete' });
    assert.equal(audit[0]!.target, 'user:ivy');
    assert.match(audit[0]!.actor, /^token:/);
    assert.equal((await call('DELETE', '/admin/api/v1/users/ivy')).statusCode, 404);
  });

  test('POST /users/:name/password: generated once without a body, given with one, short refused naming the field', async () => {
    await gateway.store.users.create('jon', 'password-123');
    const session = await gateway.store.sessions.create((await gateway.store.users.findByName('jon'))!.id);
    const generated = await call('POST', '/admin/api/v1/users/jon/password');
    assert.equal(generated.statusCode, 200, generated.payload);
    assert.match(generated.json().password, /^[0-9A-Za-z]{20}$/);
    assert.equal(generated.headers['cache-control'], 'no-store');
    assert.ok(await gateway.store.users.authenticate('jon', generated.json().password));
    assert.equal(await gateway.store.sessions.find(session.token), undefined, 'sessions ended');
    const given = await call('POST', '/admin/api/v1/users/jon/password', { password: 'chosen-password-1' });
    assert.equal(given.statusCode, 200);
    assert.equal(given.json().password, undefined);
    assert.ok(await gateway.store.users.authenticate('jon', 'chosen-password-1'));
    const short = await call('POST', '/admin/api/v1/users/jon/password', { password: 'short' });
    assert.equal(short.statusCode, 400);
    assert.match(short.json().error.message, /password/);
  });

  test('the last active operator: disable and delete answer 409 last_operator; disabling twice audits once', async () => {
    for (const [method, url] of [['POST', '/admin/api/v1/users/root/disable'], ['DELETE', '/admin/api/v1/users/root']] as const) {
      const refused = await call(method, url);
      assert.equal(refused.statusCode, 409, refused.payload);
      assert.equal(refused.json().error.code, 'last_operator');
      assert.match(refused.json().error.message, /last active operator/);
    }
    await gateway.store.users.create('kim', 'password-123');
    assert.equal((await call('POST', '/admin/api/v1/users/kim/disable')).json().changed, true);
    assert.equal((await call('POST', '/admin/api/v1/users/kim/disable')).json().changed, false);
    assert.equal((await gateway.store.audit.list({ action: 'user.disable' })).filter((e) => e.target === 'user:kim').length, 1);
  });
});
