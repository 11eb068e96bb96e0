// Two gateway instances on one PostgreSQL database and one Redis share a key's money budget and a
// user's request budget: used up across both, still used up after both restart, and still after
// Redis lost its counters (each instance seeds a missing counter once from the usage table, SET NX,
// so the two do not add the database's total twice).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { GatewayProcess, isolateClientEnvironment, type CreatedKey } from '../helpers/gateway-process.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres-database.ts';
import { RedisProcess } from '../helpers/redis-process.ts';
import { waitFor } from '../helpers/wait-for.ts';

const PROVIDERS = `
providers:
  - name: demo
    type: demo
prices:
  - model: demo-chat
    currency: USD
    input: 100
    output: 100
`;

async function chat(url: string, key: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ model: 'demo-chat', messages: [{ role: 'user', content: 'share me' }] }),
  });
  return { status: response.status, body: await response.json() };
}

describe('budgets shared by two instances on PostgreSQL + Redis, across restarts', { timeout: 600_000 }, () => {
  let database: TestDatabase;
  let redis: RedisProcess;
  let instances: GatewayProcess[] = [];
  let restoreEnv: () => void;
  const prefix = `b${randomBytes(4).toString('hex')}:`;

  before(async () => {
    restoreEnv = isolateClientEnvironment();
    database = await createTestDatabase('budgets');
    redis = await RedisProcess.start();
    const env = { GWCTL_DATABASE_URL: database.url, GWCTL_REDIS_URL: redis.url, GWCTL_REDIS_PREFIX: prefix };
    // One first (it sets the database up), then the other.
    instances = [await GatewayProcess.start({ providers: PROVIDERS, env, adminPassword: 'budget-admin-pass' })];
    instances.push(await GatewayProcess.start({ providers: PROVIDERS, env }));
  });

  after(async () => {
    await Promise.all(instances.map((g) => g.cleanup()));
    await redis?.stop();
    await database?.drop();
    restoreEnv?.();
  });

  const restartBoth = async () => {
    instances = [await instances[0]!.restart(), await instances[1]!.restart()];
  };

  test('a money budget on a key: used up across both instances, after both restart, and after Redis lost its counters', async () => {
    const key = await instances[0]!.adminJson<CreatedKey>(['key', 'create', '--user', 'admin', '--name', 'shared-money', '--budget-cost-day', '0.004']);
    const counter = `${prefix}budget:key:${key.id}:cost:day:${new Date().toISOString().slice(0, 10)}`;
    const inspector = new Redis(redis.url);
    let answered = 0;
    try {
      for (; answered < 20; answered += 1) {
        const before = Number(await inspector.get(counter));
        const answer = await chat(instances[answered % 2]!.textUrl, key.key);
        if (answer.status === 429) break;
        assert.equal(answer.status, 200);
        // Charged when the request ends: the next request must see it on the other instance.
        await waitFor(async () => Number(await inspector.get(counter)) > before, { timeoutMs: 10_000, what: 'the charge in Redis' });
      }
      assert.ok(answered >= 2 && answered < 20, `both instances served before the budget stopped them (${answered} requests)`);
      const used = Number(await inspector.get(counter));
      assert.ok(used >= 4_000);
      for (const instance of instances) assert.equal((await chat(instance.textUrl, key.key)).status, 429, instance.textUrl);

      await restartBoth();
      for (const instance of instances) {
        const answer = await chat(instance.textUrl, key.key);
        assert.equal(answer.status, 429, `after the restart, ${instance.textUrl}`);
        assert.match(answer.body.error.message, /daily budget of 0\.004 USD/);
      }

      await inspector.del(counter);
      await restartBoth();
      for (const instance of instances) assert.equal((await chat(instance.textUrl, key.key)).status, 429, `Redis emptied, ${instance.textUrl}`);
      assert.equal(Number(await inspector.get(counter)), used, 'seeded once from the usage table, not once per instance');
    } finally {
      inspector.disconnect();
    }
  });

  test("a user's request budget counts all their keys on both instances, and survives a restart", async () => {
    await instances[0]!.addUser('spender');
    const user = await instances[1]!.adminJson<{ id: string }>(['user', 'set', 'spender', '--budget-requests-day', '3']);
    const [a, b] = [await instances[0]!.createKey('spender', 'a'), await instances[1]!.createKey('spender', 'b')];
    const counter = `${prefix}budget:user:${user.id}:requests:day:${new Date().toISOString().slice(0, 10)}`;
    const inspector = new Redis(redis.url);
    try {
      const asks: Array<[number, string]> = [[0, a.key], [1, b.key], [0, b.key]];
      for (const [i, [instance, key]] of asks.entries()) {
        assert.equal((await chat(instances[instance]!.textUrl, key)).status, 200);
        await waitFor(async () => Number(await inspector.get(counter)) === i + 1, { timeoutMs: 10_000, what: 'the charge in Redis' });
      }
    } finally {
      inspector.disconnect();
    }
    assert.equal((await chat(instances[1]!.textUrl, a.key)).status, 429);
    await restartBoth();
    const answer = await chat(instances[1]!.textUrl, b.key);
    assert.equal(answer.status, 429);
    assert.match(answer.body.error.message, /account \(all its keys together\) has used its daily budget of 3 requests \(3 requests used; the budget-requests-day budget\)/);
  });
});
