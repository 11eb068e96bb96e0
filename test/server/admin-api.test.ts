// The operator REST API: refused without a token, with an unknown one and with a revoked one; with a
// real token, users (list, create, disable), keys of any user (create returns the value once, list
// never does, limits change, delete) and usage with filters; the OpenAPI document validates and
// lists every route.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import { bearer, createTestGateway, type TestGateway } from '../helpers/test-app.ts';

describe('operator API', () => {
  let gateway: TestGateway;
  let token: string;
  let tokenId: string;

  before(async () => {
    gateway = await createTestGateway();
    await gateway.store.users.create('alice', 'password-123');
    const created = await gateway.store.operatorTokens.create('tests');
    token = created.token;
    tokenId = created.id;
  });

  after(async () => {
    await gateway?.close();
  });

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, auth: string | null = token) =>
    gateway.text.inject({ method, url, headers: auth ? { authorization: `Bearer ${auth}` } : {}, ...(payload ? { payload } : {}) });

  test('without a token, with an unknown one, or with an API key: 401 in the error envelope', async () => {
    const none = await call('GET', '/admin/api/v1/users', undefined, null);
    assert.equal(none.statusCode, 401);
    assert.equal(none.json().error.code, 'operator_token_required');
    assert.match(none.json().error.message, /gwctl admin token create/);
    const unknown = await call('GET', '/admin/api/v1/users', undefined, 'gwo-' + 'x'.repeat(48));
    assert.equal(unknown.json().error.code, 'invalid_operator_token');
    const { key } = await gateway.userWithKey('keyholder');
    assert.equal((await call('GET', '/admin/api/v1/keys', undefined, key)).statusCode, 401, 'an API key is not an operator token');
  });

  test('users: list, create with a generated password shown once, disable cuts the keys at once', async () => {
    const listed = await call('GET', '/admin/api/v1/users');
    assert.equal(listed.statusCode, 200);
    assert.ok(listed.json().users.some((u: { username: string }) => u.username === 'alice'));
    const created = await call('POST', '/admin/api/v1/users', { username: 'carol' });
    assert.equal(created.statusCode, 201, created.payload);
    assert.match(created.json().password, /^[0-9A-Za-z]{20}$/);
    assert.equal(created.json().user.username, 'carol');
    assert.equal((await call('POST', '/admin/api/v1/users', { username: 'carol' })).statusCode, 409);
    const key = await call('POST', '/admin/api/v1/keys', { user: 'carol', name: 'ci' });
    const value = key.json().key as string;
    assert.equal((await gateway.text.inject({ url: '/v1/models', headers: bearer(value) })).statusCode, 200);
    const disabled = await call('POST', '/admin/api/v1/users/carol/disable');
    assert.equal(disabled.statusCode, 200);
    assert.equal(disabled.json().user.disabled, true);
    assert.equal((await gateway.text.inject({ url: '/v1/models', headers: bearer(value) })).statusCode, 401);
    assert.equal((await call('POST', '/admin/api/v1/users/nobody/disable')).statusCode, 404);
  });

  test('keys: the value only in the create answer; limits change; delete answers 401 at the next request', async () => {
    const created = await call('POST', '/admin/api/v1/keys', { user: 'alice', name: 'automation', models: ['demo-chat'], budgetRequestsDay: 100 });
    assert.equal(created.statusCode, 201, created.payload);
    const { id, key } = created.json() as { id: string; key: string };
    assert.match(key, /^sk-[0-9A-Za-z]{48}$/);
    assert.deepEqual(created.json().limits.models, ['demo-chat']);
    assert.deepEqual(created.json().budgetStatus, undefined, 'the create answer is the new key itself');
    const listed = await call('GET', '/admin/api/v1/keys?user=alice');
    assert.ok(!listed.payload.includes(key), 'a list never carries a key value');
    assert.deepEqual(listed.json().keys.map((k: { id: string; user: string }) => [k.id, k.user]), [[id, 'alice']]);
    assert.deepEqual(listed.json().keys[0].budgetStatus.map((b: { name: string; remaining: number }) => [b.name, b.remaining]), [['requestsDay', 100]]);
    const patched = await call('PATCH', `/admin/api/v1/keys/${id}`, { models: null, rateLimit: 5 });
    assert.equal(patched.statusCode, 200, patched.payload);
    assert.equal(patched.json().limits.models, null);
    assert.equal(patched.json().limits.rateLimit, 5);
    assert.ok(!patched.payload.includes(key));
    const wrong = await call('PATCH', `/admin/api/v1/keys/${id}`, { expires: 'someday' });
    assert.equal(wrong.statusCode, 400);
    assert.match(wrong.json().error.message, /duration like 30d/);
    assert.equal((await gateway.text.inject({ url: '/v1/models', headers: bearer(key) })).statusCode, 200);
    assert.equal((await call('DELETE', `/admin/api/v1/keys/${id}`)).statusCode, 204);
    assert.equal((await gateway.text.inject({ url: '/v1/models', headers: bearer(key) })).statusCode, 401);
    assert.equal((await call('DELETE', `/admin/api/v1/keys/${id}`)).statusCode, 404);
  });

  test('usage: filtered by user, model and time, per hour or per day', async () => {
    const created = await call('POST', '/admin/api/v1/keys', { user: 'alice', name: 'usage' });
    const key = created.json().key as string;
    for (let i = 0; i < 2; i += 1) {
      const res = await gateway.text.inject({ method: 'POST', url: '/v1/chat/completions', headers: bearer(key), payload: { model: 'demo-chat', messages: [{ role: 'user', content: 'hi' }] } });
      assert.equal(res.statusCode, 200);
    }
    const rows = (await call('GET', '/admin/api/v1/usage?user=alice&model=demo-chat&by=day')).json().rows as Array<{ user: string; model: string; requests: number; period: string }>;
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.requests, 2);
    assert.equal(rows[0]!.user, 'alice');
    assert.match(rows[0]!.period, /^\d{4}-\d{2}-\d{2}$/);
    assert.deepEqual((await call('GET', '/admin/api/v1/usage?user=alice&model=other')).json().rows, []);
    assert.deepEqual((await call('GET', '/admin/api/v1/usage?until=2000-01-01')).json().rows, []);
    assert.equal((await call('GET', '/admin/api/v1/usage?since=yesterday')).statusCode, 400);
  });

  test('the OpenAPI document validates and lists every route; a revoked token is refused', async () => {
    const res = await gateway.text.inject({ url: '/admin/api/openapi.json' });
    assert.equal(res.statusCode, 200);
    const document = res.json();
    assert.equal(document.openapi, '3.1.0');
    await SwaggerParser.validate(structuredClone(document));
    const routes = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    assert.deepEqual(routes.sort(), [
      'DELETE /admin/api/v1/keys/{id}',
      'DELETE /admin/api/v1/prices',
      'DELETE /admin/api/v1/users/{name}',
      'DELETE /admin/api/v1/users/{name}/sign-ins',
      'GET /admin/api/v1/audit',
      'GET /admin/api/v1/keys',
      'GET /admin/api/v1/keys/find',
      'GET /admin/api/v1/prices',
      'GET /admin/api/v1/requests/{id}',
      'GET /admin/api/v1/usage',
      'GET /admin/api/v1/users',
      'GET /admin/api/v1/users/{name}/overview',
      'PATCH /admin/api/v1/keys/{id}',
      'PATCH /admin/api/v1/users/{name}/limits',
      'POST /admin/api/v1/keys',
      'POST /admin/api/v1/support',
      'POST /admin/api/v1/users',
      'POST /admin/api/v1/users/{name}/disable',
      'POST /admin/api/v1/users/{name}/enable',
      'POST /admin/api/v1/users/{name}/password',
      'PUT /admin/api/v1/prices',
      'PUT /admin/api/v1/users/{name}/role',
    ]);
    const audit = await gateway.text.inject({ url: '/admin/api/v1/audit?action=key.delete', headers: { authorization: `Bearer ${token}` } });
    assert.equal(audit.statusCode, 200);
    assert.ok(audit.json().entries.length >= 1);
    assert.ok(audit.json().entries.every((e: { action: string; actor: string }) => e.action === 'key.delete' && e.actor.startsWith('token:')));
    await gateway.store.operatorTokens.revoke(tokenId);
    assert.equal((await call('GET', '/admin/api/v1/users')).json().error.code, 'invalid_operator_token');
  });
});
