// Several gateway instances on one PostgreSQL database and one Redis (the machine's PostgreSQL, a
// redis-server of the test's own), requests spread across them: concurrent first start, an exact
// shared rate limit, revocation on every instance at the next request with no database query per
// request in steady state, a key's request budget counted across instances and a key edit reaching
// all of them, /metrics in Prometheus format; then faults: PostgreSQL connections
// terminated under load (only 503s, no exit, recovery, exact usage) and Redis stopped mid-run
// (a deleted key is never served).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import parsePrometheus from 'parse-prometheus-text-format';
import { FakeUpstream, jsonReply } from '../helpers/fake-upstream.ts';
import { GatewayProcess, isolateClientEnvironment } from '../helpers/gateway-process.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres-database.ts';
import { RedisProcess } from '../helpers/redis-process.ts';
import { waitFor } from '../helpers/wait-for.ts';

const METRICS_TOKEN = 'metrics-token-for-tests-0001';

interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

async function get(url: string, key: string): Promise<Answer> {
  const response = await fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
  return { status: response.status, body: await response.json(), headers: response.headers };
}

async function chat(url: string, key: string): Promise<Answer> {
  const response = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ model: 'demo-chat', max_tokens: 6, messages: [{ role: 'user', content: 'spread me' }] }),
  });
  return { status: response.status, body: await response.json(), headers: response.headers };
}

async function metric(url: string, name: string): Promise<number> {
  const response = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  assert.equal(response.status, 200);
  const family = (parsePrometheus(await response.text()) as Array<{ name: string; metrics: Array<{ value: string }> }>).find((f) => f.name === name);
  assert.ok(family, `metric ${name}`);
  return family.metrics.reduce((sum, m) => sum + Number(m.value), 0);
}

async function startInstances(count: number, env: Record<string, string>, rateLimit: number): Promise<GatewayProcess[]> {
  // Together, on purpose: an empty database must survive instances racing to set it up.
  return Promise.all(Array.from({ length: count }, () => GatewayProcess.start({ rateLimit, env, adminPassword: 'scale-out-admin' })));
}

describe('three instances on PostgreSQL + Redis', { timeout: 600_000 }, () => {
  let database: TestDatabase;
  let redis: RedisProcess;
  let instances: GatewayProcess[] = [];
  let restoreEnv: () => void;
  const RATE = 12;
  const prefix = `t${randomBytes(4).toString('hex')}:`;

  before(async () => {
    restoreEnv = isolateClientEnvironment();
    database = await createTestDatabase('scale');
    redis = await RedisProcess.start();
    instances = await startInstances(3, { GWCTL_DATABASE_URL: database.url, GWCTL_REDIS_URL: redis.url, GWCTL_REDIS_PREFIX: prefix, GWCTL_METRICS_TOKEN: METRICS_TOKEN }, RATE);
  });

  after(async () => {
    await Promise.all(instances.map((g) => g.cleanup()));
    await redis?.stop();
    await database?.drop();
    restoreEnv?.();
  });

  test('a concurrent first start on an empty database: all three serve, one operator account', async () => {
    for (const instance of instances) assert.equal(instance.exitInfo, undefined, instance.stderr);
    const users = await instances[0]!.adminJson<Array<{ username: string }>>(['user', 'list']);
    assert.deepEqual(users.map((u) => u.username), ['admin']);
    for (const instance of instances) assert.equal((await fetch(`${instance.textUrl}/ready`)).status, 200);
  });

  test(`the per-key limit is exact across instances: ${RATE} of ${3 * RATE} requests pass`, async () => {
    const { key } = await instances[0]!.createKey('admin', 'limited');
    const statuses: number[] = [];
    for (let i = 0; i < 3 * RATE; i += 1) {
      const answer = await get(instances[i % 3]!.textUrl, key);
      statuses.push(answer.status);
      if (answer.status === 429) {
        assert.ok(Number(answer.headers.get('retry-after')) > 0);
        assert.equal(answer.headers.get('x-ratelimit-remaining-requests'), '0');
      }
    }
    assert.equal(statuses.filter((s) => s === 200).length, RATE);
    assert.equal(statuses.filter((s) => s === 429).length, 2 * RATE);
  });

  test('steady state costs no database query per request; a key deleted on one instance answers 401 on all at the next request', async () => {
    const created = await instances[1]!.createKey('admin', 'revoked');
    for (const instance of instances) assert.equal((await get(instance.textUrl, created.key)).status, 200);
    const lookups = await Promise.all(instances.map((i) => metric(i.textUrl, 'gwctl_key_lookups_database')));
    for (let round = 0; round < 3; round += 1) for (const instance of instances) assert.equal((await get(instance.textUrl, created.key)).status, 200);
    assert.deepEqual(await Promise.all(instances.map((i) => metric(i.textUrl, 'gwctl_key_lookups_database'))), lookups, 'cached: no lookup went to the database');

    const deleted = await instances[2]!.admin(['key', 'delete', created.id]);
    assert.equal(deleted.code, 0, deleted.stderr);
    for (const instance of instances) {
      const answer = await get(instance.textUrl, created.key);
      assert.equal(answer.status, 401, `instance ${instance.textUrl}`);
      assert.equal(answer.headers.get('x-should-retry'), 'false');
    }
  });

  test('key limits on every instance: a request budget counted across them, an edit reaching all at the next request', async () => {
    const created = await instances[0]!.adminJson<{ id: string; key: string }>(['key', 'create', '--user', 'admin', '--name', 'budgeted', '--budget-requests-month', '4']);
    const inspector = new Redis(redis.url);
    const counter = `${prefix}budget:key:${created.id}:requests:month:${new Date().toISOString().slice(0, 7)}`;
    try {
      for (let i = 0; i < 4; i += 1) {
        assert.equal((await chat(instances[i % 3]!.textUrl, created.key)).status, 200);
        // Charged when the request ends: wait for the shared counter before the next one.
        await waitFor(async () => Number(await inspector.get(counter)) === i + 1, { timeoutMs: 10_000, what: 'the charge in Redis' });
      }
    } finally {
      inspector.disconnect();
    }
    for (const instance of instances) {
      const answer = await chat(instance.textUrl, created.key);
      assert.equal(answer.status, 429, `instance ${instance.textUrl}`);
      assert.equal(answer.body.error.code, 'quota_exceeded');
    }
    const updated = await instances[2]!.admin(['key', 'update', created.id, '--budget-requests-month', '0', '--models', 'demo-embedding']);
    assert.equal(updated.code, 0, updated.stderr);
    for (const instance of instances) {
      const answer = await chat(instance.textUrl, created.key);
      assert.equal(answer.status, 403, `instance ${instance.textUrl}`);
      assert.equal(answer.body.error.code, 'model_not_allowed');
    }
  });

  test('a user disabled from the command line is refused on every instance', async () => {
    await instances[0]!.addUser('carol');
    const { key } = await instances[0]!.createKey('carol', 'carol');
    for (const instance of instances) assert.equal((await get(instance.textUrl, key)).status, 200);
    const disabled = await instances[0]!.admin(['user', 'disable', 'carol']);
    assert.equal(disabled.code, 0, disabled.stderr);
    for (const instance of instances) assert.equal((await get(instance.textUrl, key)).status, 401);
    assert.equal((await instances[0]!.admin(['user', 'enable', 'carol'])).code, 0);
    for (const instance of instances) await waitFor(async () => (await get(instance.textUrl, key)).status === 200, { timeoutMs: 10_000, what: 'the enabled user' });
  });

  test('failed logins are counted across instances: the tenth failure on any of them locks the address for that name', async () => {
    async function attempt(url: string, password: string): Promise<number> {
      const form = await fetch(`${url}/login`);
      const token = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1]!;
      const cookie = String(form.headers.get('set-cookie')).split(';')[0]!;
      const response = await fetch(`${url}/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin: url },
        body: new URLSearchParams({ _csrf: token, username: 'admin', password }).toString(),
      });
      await response.arrayBuffer();
      return response.status;
    }
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1) statuses.push(await attempt(instances[i % 3]!.textUrl, `wrong-${i}`));
    assert.deepEqual(statuses, Array(10).fill(401));
    for (const instance of instances) assert.equal(await attempt(instance.textUrl, 'scale-out-admin'), 429, 'the guessing address is locked for this name everywhere');
  });

  test('/metrics is Prometheus text behind the token', async () => {
    const url = instances[0]!.textUrl;
    assert.equal((await fetch(`${url}/metrics`)).status, 401);
    assert.equal((await fetch(`${url}/metrics`, { headers: { authorization: 'Bearer wrong' } })).status, 401);
    const response = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    assert.match(String(response.headers.get('content-type')), /text\/plain/);
    const families = parsePrometheus(await response.text()) as Array<{ name: string; type: string; metrics: Array<{ labels?: Record<string, string> }> }>;
    const names = new Set(families.map((f) => f.name));
    for (const name of ['gwctl_requests_total', 'gwctl_request_duration_seconds', 'gwctl_gateway_overhead_seconds', 'gwctl_upstream_failures_total', 'gwctl_upstream_retries_total', 'gwctl_open_streams', 'gwctl_rate_limited_total', 'gwctl_usage_buffer_buckets', 'gwctl_usage_flush_failures', 'gwctl_usage_journal_segments', 'gwctl_usage_journal_append_failures', 'gwctl_key_lookups_database', 'gwctl_nodejs_eventloop_lag_p99_seconds']) {
      assert.ok(names.has(name), `${name} in /metrics`);
    }
    const requests = families.find((f) => f.name === 'gwctl_requests_total')!;
    assert.ok(requests.metrics.some((m) => m.labels?.route === '/v1/models' && m.labels?.status === '429'));
    assert.ok((await metric(url, 'gwctl_rate_limited_total')) > 0);
  });
});

describe('faults under load: PostgreSQL connections dropped, Redis stopped', { timeout: 600_000 }, () => {
  let database: TestDatabase;
  let redis: RedisProcess;
  let instances: GatewayProcess[] = [];
  let restoreEnv: () => void;

  before(async () => {
    restoreEnv = isolateClientEnvironment();
    database = await createTestDatabase('faults');
    redis = await RedisProcess.start();
    instances = await startInstances(2, { GWCTL_DATABASE_URL: database.url, GWCTL_REDIS_URL: redis.url, GWCTL_REDIS_PREFIX: `f${randomBytes(4).toString('hex')}:`, GWCTL_METRICS_TOKEN: METRICS_TOKEN }, 0);
  });

  after(async () => {
    await Promise.all(instances.map((g) => g.cleanup()));
    await redis?.stop();
    await database?.drop();
    restoreEnv?.();
  });

  test('connections terminated during load: only 200 or 503 (in shape, retry-after), no exit, recovery, usage exact', async () => {
    const created = await instances[0]!.createKey('admin', 'load');
    const counts = { ok: 0, unavailable: 0 };
    const problems: string[] = [];
    let stop = false;
    const workers = Array.from({ length: 4 }, async (_, w) => {
      for (let i = 0; !stop && i < 2_000; i += 1) {
        const answer = await chat(instances[(w + i) % 2]!.textUrl, created.key).catch((error: Error) => ({ status: -1, body: error.message, headers: new Headers() }));
        if (answer.status === 200) counts.ok += 1;
        else if (answer.status === 503 && answer.body?.error?.code === 'database_unavailable' && answer.headers.get('retry-after')) counts.unavailable += 1;
        else problems.push(`${answer.status}: ${JSON.stringify(answer.body).slice(0, 200)}`);
      }
    });
    await waitFor(() => counts.ok >= 30, { timeoutMs: 60_000, what: 'load before the fault' });
    const terminated = [await database.terminateConnections()];
    await waitFor(() => counts.ok >= 80, { timeoutMs: 60_000, what: 'load between faults' });
    terminated.push(await database.terminateConnections());
    await waitFor(() => counts.ok >= 140, { timeoutMs: 120_000, what: 'load after the faults' });
    stop = true;
    await Promise.all(workers);
    assert.ok(terminated.every((n) => n > 0), `connections terminated: ${terminated}`);
    assert.deepEqual(problems, []);
    for (const instance of instances) {
      assert.equal(instance.exitInfo, undefined, `an instance exited: ${instance.stderr}`);
      await waitFor(async () => (await fetch(`${instance.textUrl}/ready`)).status === 200, { timeoutMs: 60_000, what: 'readiness after the faults' });
      assert.equal((await chat(instance.textUrl, created.key)).status, 200);
      counts.ok += 1;
    }
    // Usage that failed to be written during the faults was kept and written later: every answer served is counted.
    const served = counts.ok;
    const recorded = await waitFor(
      async () => {
        const report = await instances[0]!.adminJson<{ rows: Array<{ keyId: string; requests: number }> }>(['usage']);
        const requests = report.rows.filter((r) => r.keyId === created.id).reduce((n, r) => n + r.requests, 0);
        return requests >= served ? requests : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 500, what: `usage of all ${served} served requests` },
    );
    assert.equal(recorded, served);
  });

  test('Redis stopped mid-run: limits fall back per instance, and a key deleted meanwhile is never served', async () => {
    const keep = await instances[0]!.createKey('admin', 'keep');
    const doomed = await instances[0]!.createKey('admin', 'doomed');
    for (const instance of instances) assert.equal((await get(instance.textUrl, doomed.key)).status, 200);
    await redis.stop();
    for (const instance of instances) {
      await waitFor(async () => (await fetch(`${instance.textUrl}/ready`)).status === 503, { timeoutMs: 30_000, what: 'readiness to report Redis missing' });
      assert.equal((await get(instance.textUrl, keep.key)).status, 200, 'requests are still served');
    }
    const deleted = await instances[1]!.admin(['key', 'delete', doomed.id]);
    assert.equal(deleted.code, 0, deleted.stderr);
    for (let round = 0; round < 5; round += 1) {
      for (const instance of instances) assert.equal((await get(instance.textUrl, doomed.key)).status, 401, `round ${round} on ${instance.textUrl}`);
    }
    await redis.run();
    for (const instance of instances) {
      await waitFor(async () => (await fetch(`${instance.textUrl}/ready`)).status === 200, { timeoutMs: 60_000, what: 'readiness after Redis is back' });
      assert.equal((await get(instance.textUrl, doomed.key)).status, 401);
      assert.equal((await get(instance.textUrl, keep.key)).status, 200);
      assert.equal(instance.exitInfo, undefined);
    }
  });
});

describe('provider health shared through Redis', { timeout: 600_000 }, () => {
  let database: TestDatabase;
  let redis: RedisProcess;
  let upstream: FakeUpstream;
  let instances: GatewayProcess[] = [];
  let restoreEnv: () => void;

  before(async () => {
    restoreEnv = isolateClientEnvironment();
    database = await createTestDatabase('health');
    redis = await RedisProcess.start();
    upstream = await FakeUpstream.start();
    const providers = {
      providers: [
        { name: 'primary', type: 'openai', baseUrl: `${upstream.url}/v1`, priority: 1, retries: 0, cooldownAfterFailures: 2, cooldownMs: 600_000, models: ['demo-chat'] },
        { name: 'demo', type: 'demo', priority: 2 },
      ],
    };
    const env = { GWCTL_DATABASE_URL: database.url, GWCTL_REDIS_URL: redis.url, GWCTL_REDIS_PREFIX: `h${randomBytes(4).toString('hex')}:`, GWCTL_METRICS_TOKEN: METRICS_TOKEN };
    instances = await Promise.all([0, 1].map(() => GatewayProcess.start({ rateLimit: 0, env, providers, adminPassword: 'health-admin' })));
  });

  after(async () => {
    await Promise.all(instances.map((g) => g.cleanup()));
    await upstream?.close();
    await redis?.stop();
    await database?.drop();
    restoreEnv?.();
  });

  test('a provider failing on one instance cools down on the other too', async () => {
    const { key } = await instances[0]!.createKey('admin', 'health');
    upstream.handle(() => jsonReply(503, { error: { message: 'overloaded', type: 'server_error' } }));
    for (let i = 0; i < 2; i += 1) {
      const answer = await chat(instances[0]!.textUrl, key);
      assert.equal(answer.status, 200, 'the backup answers');
      assert.equal(answer.headers.get('x-gateway-provider'), 'demo');
    }
    assert.equal(upstream.requests.length, 2);
    const cooling = async (url: string) => {
      const response = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      const family = (parsePrometheus(await response.text()) as Array<{ name: string; metrics: Array<{ labels: Record<string, string>; value: string }> }>).find((f) => f.name === 'gwctl_provider_cooling');
      return family?.metrics.find((m) => m.labels.provider === 'primary')?.value === '1';
    };
    assert.ok(await cooling(instances[0]!.textUrl));
    await waitFor(() => cooling(instances[1]!.textUrl), { timeoutMs: 30_000, what: 'the other instance to learn of the failures' });
    const other = await chat(instances[1]!.textUrl, key);
    assert.equal(other.status, 200);
    assert.equal(other.headers.get('x-gateway-provider'), 'demo');
    assert.equal(other.headers.get('x-gateway-attempts'), '1', 'the cooling provider was not tried');
    assert.equal(upstream.requests.length, 2, 'no request reached the failing provider from the other instance');
  });
});

