// Operator API: one check per documented parameter, and a check that every parameter the OpenAPI
// document lists has one (a new parameter without a test fails here). Query strings are coerced
// (`?limit=3`), daily rows name their bucket `period`, unknown properties are named in the error,
// limits are accepted in the shape answers use, and the document names its schemas.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { bearer, createTestGateway, type TestGateway } from '../helpers/test-app.ts';

describe('operator API parameters', () => {
  let gateway: TestGateway;
  let token: string;
  let keyId: string;
  const get = (url: string) => gateway.text.inject({ url, headers: bearer(token) });
  const send = (method: 'POST' | 'PATCH' | 'PUT', url: string, payload: object) => gateway.text.inject({ method, url, headers: bearer(token), payload });

  before(async () => {
    gateway = await createTestGateway();
    token = (await gateway.store.operatorTokens.create('params')).token;
    const { keyId: id, key } = await gateway.userWithKey('pia');
    keyId = id;
    await gateway.userWithKey('quinn');
    for (let i = 0; i < 3; i += 1) assert.equal((await gateway.text.inject({ method: 'POST', url: '/v1/chat/completions', headers: bearer(key), payload: { model: 'demo-chat', messages: [{ role: 'user', content: 'hi' }] } })).statusCode, 200);
    for (const name of ['r1', 'r2', 'r3', 'r4']) await send('POST', '/admin/api/v1/users', { username: name });
  });
  after(() => gateway?.close());

  const CASES: Record<string, () => Promise<void>> = {
    'GET /admin/api/v1/audit limit': async () => {
      const res = await get('/admin/api/v1/audit?limit=3');
      assert.equal(res.statusCode, 200, res.payload);
      assert.equal(res.json().entries.length, 3);
      const bad = await get('/admin/api/v1/audit?limit=many');
      assert.equal(bad.statusCode, 400);
      assert.match(bad.json().error.message, /query string: `limit`/);
      assert.equal((await get('/admin/api/v1/audit?limit=0')).statusCode, 400);
    },
    'GET /admin/api/v1/audit action': async () => {
      const entries = (await get('/admin/api/v1/audit?action=user.create')).json().entries as Array<{ action: string }>;
      assert.ok(entries.length >= 4 && entries.every((e) => e.action === 'user.create'));
    },
    'GET /admin/api/v1/keys/find q': async () => {
      const keys = (await get('/admin/api/v1/keys/find?q=sk-...zzzz')).json();
      assert.equal(keys.kind, 'hint', 'sk-...zzzz is read as a masked key');
      assert.equal((await get('/admin/api/v1/keys/find?q=')).statusCode, 400, 'an empty query is refused');
    },
    'GET /admin/api/v1/keys user': async () => {
      const keys = (await get('/admin/api/v1/keys?user=pia')).json().keys as Array<{ user: string }>;
      assert.deepEqual(keys.map((k) => k.user), ['pia']);
      assert.equal((await get('/admin/api/v1/keys?user=nobody')).statusCode, 404);
    },
    'GET /admin/api/v1/usage user': async () => {
      const rows = (await get('/admin/api/v1/usage?user=pia')).json().rows as Array<{ user: string }>;
      assert.ok(rows.length > 0 && rows.every((r) => r.user === 'pia'));
      assert.equal((await get('/admin/api/v1/usage?user=nobody')).statusCode, 404);
    },
    'GET /admin/api/v1/usage key': async () => {
      const rows = (await get(`/admin/api/v1/usage?key=${keyId}`)).json().rows as Array<{ keyId: string }>;
      assert.ok(rows.length > 0 && rows.every((r) => r.keyId === keyId));
    },
    'GET /admin/api/v1/usage model': async () => {
      assert.ok((await get('/admin/api/v1/usage?model=demo-chat')).json().rows.length > 0);
      assert.deepEqual((await get('/admin/api/v1/usage?model=other')).json().rows, []);
    },
    'GET /admin/api/v1/usage since': async () => {
      assert.ok((await get('/admin/api/v1/usage?since=2000-01-01')).json().rows.length > 0);
      assert.deepEqual((await get('/admin/api/v1/usage?since=2999-01-01')).json().rows, []);
      assert.equal((await get('/admin/api/v1/usage?since=yesterday')).statusCode, 400);
    },
    'GET /admin/api/v1/usage until': async () => {
      assert.deepEqual((await get('/admin/api/v1/usage?until=2000-01-01')).json().rows, []);
      assert.ok((await get('/admin/api/v1/usage?until=2999-01-01')).json().rows.length > 0);
    },
    'DELETE /admin/api/v1/prices model': async () => {
      assert.equal((await send('PUT', '/admin/api/v1/prices', { model: 'gone-soon', currency: 'USD', input: 1, output: 2 })).statusCode, 200);
      const res = await gateway.text.inject({ method: 'DELETE', url: '/admin/api/v1/prices?model=gone-soon', headers: bearer(token) });
      assert.equal(res.statusCode, 200, res.payload);
      assert.equal((await gateway.text.inject({ method: 'DELETE', url: '/admin/api/v1/prices?model=gone-soon', headers: bearer(token) })).statusCode, 404);
      assert.equal((await gateway.text.inject({ method: 'DELETE', url: '/admin/api/v1/prices', headers: bearer(token) })).statusCode, 400, 'model is required');
    },
    'DELETE /admin/api/v1/prices provider': async () => {
      const provider = gateway.deps.router.providers[0]!.name;
      assert.equal((await send('PUT', '/admin/api/v1/prices', { model: 'narrowed', provider, currency: 'USD', input: 1, output: 2 })).statusCode, 200);
      assert.equal((await gateway.text.inject({ method: 'DELETE', url: '/admin/api/v1/prices?model=narrowed', headers: bearer(token) })).statusCode, 404, 'without the provider it is another entry');
      assert.equal((await gateway.text.inject({ method: 'DELETE', url: `/admin/api/v1/prices?model=narrowed&provider=${provider}`, headers: bearer(token) })).statusCode, 200);
    },
    'DELETE /admin/api/v1/prices from': async () => {
      assert.equal((await send('PUT', '/admin/api/v1/prices', { model: 'dated', currency: 'USD', input: 1, output: 2, from: '2027-01-01' })).statusCode, 200);
      assert.equal((await gateway.text.inject({ method: 'DELETE', url: '/admin/api/v1/prices?model=dated&from=2027-01-01', headers: bearer(token) })).statusCode, 200);
    },
    'GET /admin/api/v1/usage by': async () => {
      const hourly = (await get('/admin/api/v1/usage?by=hour&user=pia')).json().rows as Array<{ period: string; hour?: string }>;
      assert.match(hourly[0]!.period, /^\d{4}-\d{2}-\d{2}T\d{2}:00Z$/);
      assert.equal(hourly[0]!.hour, undefined, 'one name for the bucket: period');
      const daily = (await get('/admin/api/v1/usage?by=day&user=pia')).json().rows as Array<{ period: string; requests: number }>;
      assert.match(daily[0]!.period, /^\d{4}-\d{2}-\d{2}$/);
      assert.equal(daily.reduce((n, r) => n + r.requests, 0), 3);
      assert.equal((await get('/admin/api/v1/usage?by=week')).statusCode, 400);
    },
  };

  test('every documented query parameter has its check, and each passes', async () => {
    const document = (await gateway.text.inject({ url: '/admin/api/openapi.json' })).json() as { paths: Record<string, Record<string, { parameters?: Array<{ in: string; name: string }> }>> };
    const documented = Object.entries(document.paths).flatMap(([path, ops]) =>
      Object.entries(ops).flatMap(([method, op]) => (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => `${method.toUpperCase()} ${path} ${p.name}`)),
    );
    assert.deepEqual(documented.sort(), Object.keys(CASES).sort());
    for (const [name, check] of Object.entries(CASES)) await test(name, check);
  });

  test('an unknown property is named; limits are accepted in the shape answers use; isAdmin as in answers', async () => {
    const unknown = await send('POST', '/admin/api/v1/keys', { user: 'pia', budgetTokensDya: 5 });
    assert.equal(unknown.statusCode, 400);
    assert.equal(unknown.json().error.param, 'budgetTokensDya');
    assert.match(unknown.json().error.message, /`budgetTokensDya` is not a known property/);
    const created = await send('POST', '/admin/api/v1/keys', { user: 'pia', limits: { models: ['demo-chat'], rateLimit: 30, budgets: { tokensDay: 1000 } } });
    assert.equal(created.statusCode, 201, created.payload);
    const limits = created.json().limits;
    assert.deepEqual({ models: limits.models, rateLimit: limits.rateLimit, tokensDay: limits.budgets.tokensDay }, { models: ['demo-chat'], rateLimit: 30, tokensDay: 1000 });
    // What a GET answers can be sent back as is.
    const roundTrip = await send('PATCH', `/admin/api/v1/keys/${created.json().id}`, { limits: { ...limits, budgets: { ...limits.budgets, tokensDay: null } } });
    assert.equal(roundTrip.statusCode, 200, roundTrip.payload);
    assert.equal(roundTrip.json().limits.budgets.tokensDay, null);
    assert.equal(roundTrip.json().limits.rateLimit, 30);
    const user = await send('PATCH', '/admin/api/v1/users/quinn/limits', { limits: { budgets: { requestsMonth: 50 } } });
    assert.equal(user.json().user.limits.budgets.requestsMonth, 50);
    const op = await send('POST', '/admin/api/v1/users', { username: 'opx', isAdmin: true });
    assert.equal(op.json().user.isAdmin, true);
  });

  test('the OpenAPI document names its schemas', async () => {
    const document = (await gateway.text.inject({ url: '/admin/api/openapi.json' })).json();
    for (const name of ['User', 'Key', 'CreatedKey', 'KeyLimits', 'UserLimits', 'AuditEntry', 'UsageRow', 'Error']) assert.ok(document.components.schemas[name], name);
    assert.equal(document.paths['/admin/api/v1/users'].get.responses['200'].content['application/json'].schema.properties.users.items.$ref, '#/components/schemas/User');
  });
});
