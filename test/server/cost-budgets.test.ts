// Money budgets beside token and request budgets: set by an owner on the keys page's API (an
// amount such as 0.01) and by an operator for a user (nested micro-units or a flat amount); a
// request is refused once the priced usage reaches the budget, in each route's error shape, naming
// the holder, the budget, what is used and when it resets; the keys page says what is left, and
// what it says is used equals the cost in the usage table.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Price } from '../../server/pricing/price.ts';
import { bearer, createTestGateway, type TestGateway } from '../helpers/test-app.ts';
import { webLogin } from '../helpers/web-login.ts';

const PRICES: Price[] = [{ model: 'demo-chat', currency: 'USD', per: 1_000_000, input: '100', output: '100' }];

describe('money budgets', () => {
  let gateway: TestGateway;
  let userId: string;
  let token: string;

  before(async () => {
    gateway = await createTestGateway({ prices: PRICES });
    userId = (await gateway.store.users.create('owner', 'password-123')).id;
    token = (await gateway.store.operatorTokens.create('budgets')).token;
  });
  after(() => gateway?.close());

  const chat = (key: string) => gateway.text.inject({ method: 'POST', url: '/v1/chat/completions', headers: bearer(key), payload: { model: 'demo-chat', messages: [{ role: 'user', content: 'hi' }] } });
  const message = (key: string) =>
    gateway.text.inject({ method: 'POST', url: '/v1/messages', headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01' }, payload: { model: 'demo-chat', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] } });

  test('a key budget set on the keys page: refused once used up, both shapes say which budget, the page agrees with the usage table', async () => {
    const login = await webLogin(gateway.text, 'owner');
    const created = await gateway.text.inject({ method: 'POST', url: '/web/api/keys', headers: { cookie: login.cookie, 'x-csrf-token': login.csrf }, payload: { name: 'metered', budgetCostDay: '0.005' } });
    assert.equal(created.statusCode, 201, created.payload);
    const { id, key, limits } = created.json() as { id: string; key: string; limits: { budgets: { costDay: number } } };
    assert.equal(limits.budgets.costDay, 5_000, 'kept in micro-units');

    let answered = 0;
    while ((await chat(key)).statusCode === 200) answered += 1;
    assert.ok(answered >= 1 && answered < 50, `${answered} answered`);
    const refused = await chat(key);
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.json().error.code, 'quota_exceeded');
    assert.match(refused.json().error.message, /^This API key has used its daily budget of 0\.005 USD \(0\.0\d+ USD used; the budget-cost-day budget\)\. /);
    assert.equal(refused.headers['x-gateway-budget'], 'key costDay');
    const messages = await message(key);
    assert.equal(messages.statusCode, 429);
    assert.equal(messages.json().type, 'error');
    assert.match(messages.json().error.message, /budget-cost-day/);

    await gateway.deps.usage.flush();
    const usedInTable = (await gateway.store.usage.rows({ keyId: id })).reduce((n, r) => n + r.costMicros, 0);
    const listed = await gateway.text.inject({ url: '/web/api/keys', headers: { cookie: login.cookie } });
    const standing = (listed.json() as { keys: Array<{ id: string; budgetStatus: Array<{ name: string; used: number; remaining: number }> }> }).keys.find((k) => k.id === id)!.budgetStatus[0]!;
    assert.deepEqual([standing.name, standing.used, standing.remaining], ['costDay', usedInTable, 0]);
    const page = await gateway.text.inject({ url: '/keys', headers: { cookie: login.cookie } });
    assert.match(page.payload, /0\.00 of 0\.005 cost today left/);
    assert.match(page.payload, /name="budgetCostDay"/);

    const wrong = await gateway.text.inject({ method: 'PATCH', url: `/web/api/keys/${id}`, headers: { cookie: login.cookie, 'x-csrf-token': login.csrf }, payload: { budgetCostDay: 'five dollars' } });
    assert.equal(wrong.statusCode, 400);
    assert.match(wrong.json().error.message, /Cost budget per day must be an amount of money such as 5 or 2\.50/);
  });

  test("an operator's money budget for a user counts all the user's keys", async () => {
    const nested = await gateway.text.inject({ method: 'PATCH', url: '/admin/api/v1/users/owner/limits', headers: bearer(token), payload: { limits: { budgets: { costMonth: 1_000_000 } } } });
    assert.equal(nested.statusCode, 200, nested.payload);
    assert.equal(nested.json().user.limits.budgets.costMonth, 1_000_000);
    const flat = await gateway.text.inject({ method: 'PATCH', url: '/admin/api/v1/users/owner/limits', headers: bearer(token), payload: { budgetCostMonth: '0.001' } });
    assert.equal(flat.json().user.limits.budgets.costMonth, 1_000);
    const [a, b] = [await gateway.store.keys.create(userId, 'a'), await gateway.store.keys.create(userId, 'b')];
    // The account has spent more than 0.001 USD this month already (the first test's key).
    const refused = await chat(a.key);
    assert.equal(refused.statusCode, 429);
    assert.match(refused.json().error.message, /^This key's account \(all its keys together\) has used its monthly budget of 0\.001 USD/);
    assert.equal(refused.headers['x-gateway-budget'], 'user costMonth');
    assert.equal((await chat(b.key)).statusCode, 429);
  });
});
