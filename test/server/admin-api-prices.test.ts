// Operator API, prices: the table lists the providers file's entries and the ones set here, a set
// is checked field by field (400 naming the field in `param`), audited, and prices usage from then
// on; usage rows carry cost and currency, null when a request had no price.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { bearer, createTestGateway, type TestGateway } from '../helpers/test-app.ts';

let gw: TestGateway;
let token: string;
let key: string;
before(async () => {
  gw = await createTestGateway({ prices: [{ model: 'demo-embedding', currency: 'USD', per: 1_000_000, input: '0.02', output: '0' }] });
  token = (await gw.store.operatorTokens.create('prices')).token;
  ({ key } = await gw.userWithKey('payer'));
});
after(() => gw.close());

const api = (method: 'GET' | 'PUT' | 'DELETE', url: string, payload?: object) => gw.text.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
const chat = () => gw.text.inject({ method: 'POST', url: '/v1/chat/completions', headers: bearer(key), payload: { model: 'demo-chat', messages: [{ role: 'user', content: 'hi' }] } });

test('a model used without a price is listed and its usage rows say cost null; once priced, cost is recorded', async () => {
  assert.equal((await chat()).statusCode, 200);
  const before = (await api('GET', '/admin/api/v1/prices')).json();
  assert.equal(before.currency, 'USD');
  assert.deepEqual(before.unpricedModels, ['demo-chat']);
  assert.deepEqual(before.prices.map((p: { model: string; source: string }) => [p.model, p.source]), [['demo-embedding', 'file']]);

  const set = await api('PUT', '/admin/api/v1/prices', { model: 'demo-*', provider: 'demo', currency: 'USD', input: 1, output: '2', from: '2020-01-01' });
  assert.equal(set.statusCode, 200, set.payload);
  assert.equal(set.json().replaced, false);
  const after = (await api('GET', '/admin/api/v1/prices')).json();
  assert.deepEqual(after.unpricedModels, []);
  assert.equal(after.prices.length, 2);

  assert.equal((await chat()).statusCode, 200);
  const rows = (await api('GET', '/admin/api/v1/usage?model=demo-chat')).json().rows as Array<Record<string, unknown>>;
  assert.equal(rows.length, 1);
  // One request without a price in the same hour: the row's total is unknown, never the priced part alone.
  assert.deepEqual([rows[0]!.cost, rows[0]!.costMicros, rows[0]!.currency, rows[0]!.unpricedRequests], [null, null, 'USD', 1]);
  await gw.deps.usage.flush();
  const stored = await gw.store.usage.rows();
  assert.ok(stored[0]!.costMicros > 0, 'the priced request recorded its cost');

  const audit = (await api('GET', '/admin/api/v1/audit?action=price.set')).json().entries as Array<{ target: string; actor: string }>;
  assert.equal(audit[0]!.target, 'price:demo-* provider demo from 2020-01-01');
  assert.match(audit[0]!.actor, /^token:/);
});

test('bad input: 400 with the field named in the message and in param', async () => {
  const cases: Array<[object, string, RegExp]> = [
    [{ model: 'm', currency: 'USD', input: 'three', output: 1 }, 'input', /input: must be an amount >= 0/],
    [{ model: 'm', currency: 'USD', output: 1 }, 'input', /input: is required/],
    [{ model: 'm', currency: 'EUR', input: 1, output: 1 }, 'currency', /currency: must be USD/],
    [{ model: 'm', currency: 'USD', input: 1, output: 1, from: 'soon' }, 'from', /from: must be a date/],
    [{ model: 'm', currency: 'USD', input: 1, output: 1, per: 'many' }, 'per', /per: must be a whole number/],
    [{ model: 'm', currency: 'USD', input: 1, output: 1, provider: 'nowhere' }, 'provider', /no provider is named "nowhere"/],
    [{ model: 'm', currency: 'USD', input: 1, output: 1, cacheRaed: 1 }, 'cacheRaed', /cacheRaed: is not a price field/],
    [{ model: '', currency: 'USD', input: 1, output: 1 }, 'model', /model: must be a public model name or a glob/],
  ];
  for (const [body, param, message] of cases) {
    const res = await api('PUT', '/admin/api/v1/prices', body);
    assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.payload}`);
    assert.equal(res.json().error.param, param);
    assert.match(res.json().error.message, message);
  }
});

test('a providers-file entry cannot be deleted here (409 says where it lives); an unknown one is 404', async () => {
  const inFile = await api('DELETE', '/admin/api/v1/prices?model=demo-embedding');
  assert.equal(inFile.statusCode, 409);
  assert.match(inFile.json().error.message, /comes from the providers file/);
  assert.equal((await api('DELETE', '/admin/api/v1/prices?model=never-set')).statusCode, 404);
});
