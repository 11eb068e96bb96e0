// Budgets survive a restart of the built gateway on the embedded SQLite default: a key with a budget
// of 3 requests a day gets 3, is refused, and after `gwctl serve` stops and starts again is still
// refused (it once got 6); a money budget, priced from the providers file, the same. What the
// operator API says is used agrees with the usage table, and the 429 names the budget in each
// route's error shape.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { GatewayProcess, isolateClientEnvironment, type CreatedKey } from '../helpers/gateway-process.ts';

const PROVIDERS = `
providers:
  - name: demo
    type: demo
prices:
  - model: demo-chat
    currency: USD
    per: 1000000
    input: 100
    output: 100
`;

interface KeyRow {
  id: string;
  budgetStatus: Array<{ name: string; unit: string; used: number; limit: number; remaining: number }>;
}

describe('budgets across a restart of the built gateway (SQLite)', () => {
  let gateway: GatewayProcess;
  let requestsKey: CreatedKey;
  let costKey: CreatedKey;
  let token: string;
  let restoreEnv: () => void;

  before(async () => {
    restoreEnv = isolateClientEnvironment();
    gateway = await GatewayProcess.start({ providers: PROVIDERS });
    requestsKey = await gateway.adminJson<CreatedKey>(['key', 'create', '--user', 'admin', '--name', 'three-a-day', '--budget-requests-day', '3']);
    costKey = await gateway.adminJson<CreatedKey>(['key', 'create', '--user', 'admin', '--name', 'half-a-cent', '--budget-cost-day', '0.005']);
    token = (await gateway.adminJson<{ token: string }>(['token', 'create', '--name', 'budget-test'])).token;
  });

  after(async () => {
    await gateway?.cleanup();
    restoreEnv?.();
  });

  const chat = (key: string) =>
    fetch(`${gateway.textUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'demo-chat', messages: [{ role: 'user', content: 'hello there' }] }),
    });
  const message = (key: string) =>
    fetch(`${gateway.textUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'demo-chat', max_tokens: 32, messages: [{ role: 'user', content: 'hello there' }] }),
    });
  const keyRow = async (id: string): Promise<KeyRow> => {
    const res = await fetch(`${gateway.textUrl}/admin/api/v1/keys?user=admin`, { headers: { authorization: `Bearer ${token}` } });
    return ((await res.json()) as { keys: KeyRow[] }).keys.find((k) => k.id === id)!;
  };
  const usageOf = async (keyId: string) => {
    const res = await fetch(`${gateway.textUrl}/admin/api/v1/usage?key=${keyId}`, { headers: { authorization: `Bearer ${token}` } });
    const rows = ((await res.json()) as { rows: Array<{ requests: number; costMicros: number | null }> }).rows;
    return { requests: rows.reduce((n, r) => n + r.requests, 0), costMicros: rows.reduce((n, r) => n + (r.costMicros ?? 0), 0) };
  };

  test('serve warns about the served models without a price: their cost will be unknown, not zero', () => {
    assert.match(gateway.stderr, /no price for demo-image, demo-embedding: their cost is recorded as unknown/);
    assert.doesNotMatch(gateway.stderr, /no price for demo-chat/);
  });

  test('a request budget of 3 a day: 3 pass, the 4th is refused, and after a restart it still is', async () => {
    for (let i = 0; i < 3; i += 1) assert.equal((await chat(requestsKey.key)).status, 200);
    const refused = await chat(requestsKey.key);
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('x-gateway-budget'), 'key requestsDay');

    gateway = await gateway.restart();

    const openAi = await chat(requestsKey.key);
    assert.equal(openAi.status, 429, 'still used up after the restart');
    const body = (await openAi.json()) as { error: { code: string; message: string } };
    assert.equal(body.error.code, 'quota_exceeded');
    assert.match(body.error.message, /This API key has used its daily budget of 3 requests \(3 requests used; the budget-requests-day budget\)\. .*It resets at \d{4}-\d{2}-\d{2}T00:00:00\.000Z/);
    const messages = await message(requestsKey.key);
    assert.equal(messages.status, 429);
    const messagesBody = (await messages.json()) as { type: string; error: { type: string; message: string } };
    assert.equal(messagesBody.type, 'error', "the messages route's own error shape");
    assert.match(messagesBody.error.message, /budget-requests-day/);

    const standing = (await keyRow(requestsKey.id)).budgetStatus.find((s) => s.name === 'requestsDay')!;
    assert.deepEqual([standing.used, standing.remaining, standing.limit], [3, 0, 3], 'not "3 of 3 left" after the restart');
    assert.equal((await usageOf(requestsKey.id)).requests, 3 + 3, 'the usage table counts the refusals as requests too, the budget only what reached a provider');
  });

  test('a money budget: refused once the priced usage reaches it, and still after a restart; the standing equals the usage table', async () => {
    let answered = 0;
    for (; answered < 20; answered += 1) {
      const res = await chat(costKey.key);
      if (res.status === 429) break;
      assert.equal(res.status, 200);
    }
    assert.ok(answered >= 1 && answered < 20, `the budget stopped requests after ${answered}`);
    const before = (await keyRow(costKey.id)).budgetStatus.find((s) => s.name === 'costDay')!;
    assert.equal(before.unit, 'cost');
    assert.ok(before.used >= 5_000 && before.remaining === 0, JSON.stringify(before));

    gateway = await gateway.restart();

    const refused = await chat(costKey.key);
    assert.equal(refused.status, 429);
    const body = (await refused.json()) as { error: { message: string } };
    assert.match(body.error.message, /daily budget of 0\.005 USD \([0-9.]+ USD used; the budget-cost-day budget\)/);
    const after = (await keyRow(costKey.id)).budgetStatus.find((s) => s.name === 'costDay')!;
    assert.equal(after.used, before.used, 'continues from what the database holds');
    assert.equal(after.used, (await usageOf(costKey.id)).costMicros, 'the keys page and the usage table agree');
  });
});
