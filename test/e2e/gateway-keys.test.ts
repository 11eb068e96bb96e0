// Keys across processes and people: a key deleted with the admin CLI (another process, same
// database) answers 401 on the very next request; each user sees and is billed for their own keys
// only; the per-key rate limit (--rate-limit 2) answers 429 with its headers in each route shape.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { GatewayProcess, isolateClientEnvironment, type CreatedKey } from '../helpers/gateway-process.ts';

interface KeyRow {
  id: string;
  user: string;
  name: string | null;
  hint: string;
  createdAt: string;
  lastUsedAt: string | null;
}

interface UsageRow {
  user: string;
  keyId: string;
  model: string;
  requests: number;
  inputTokens: number;
  outputTokens: number;
  errors: Record<string, number>;
}

describe('keys: deletion, owner isolation, rate limit', () => {
  let gateway: GatewayProcess;
  let toDelete: CreatedKey;
  let limited: CreatedKey;
  let bobKey: CreatedKey;
  let restoreEnv: () => void;

  before(async () => {
    restoreEnv = isolateClientEnvironment();
    gateway = await GatewayProcess.start({ rateLimit: 2 });
    [toDelete, limited, bobKey] = await Promise.all([
      gateway.createKey('admin', 'to-delete'),
      gateway.createKey('admin', 'limited'),
      gateway.addUser('bob').then(() => gateway.createKey('bob', 'bobs-laptop')),
    ]);
  });

  after(async () => {
    await gateway?.cleanup();
    restoreEnv?.();
  });

  const models = (key: string, headers: Record<string, string> = {}) => fetch(`${gateway.textUrl}/v1/models`, { headers: { authorization: `Bearer ${key}`, ...headers } });

  test('--rate-limit 2: the third request of a key answers 429 with Retry-After and x-ratelimit-* headers', async () => {
    const first = await models(limited.key);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('x-ratelimit-limit-requests'), '2');
    assert.equal(first.headers.get('x-ratelimit-remaining-requests'), '1');
    assert.match(first.headers.get('x-ratelimit-reset-requests') ?? '', /^\d+s$/);
    await first.arrayBuffer();
    const second = await models(limited.key);
    assert.equal(second.status, 200);
    assert.equal(second.headers.get('x-ratelimit-remaining-requests'), '0');
    await second.arrayBuffer();

    const client = new OpenAI({ baseURL: `${gateway.textUrl}/v1`, apiKey: limited.key, maxRetries: 0 });
    await assert.rejects(client.chat.completions.create({ model: 'demo-chat', messages: [{ role: 'user', content: 'one more' }] }), (error: unknown) => {
      assert.ok(error instanceof OpenAI.RateLimitError, String(error));
      const body = error.error as { message: string; type: string; code: string; param: unknown };
      assert.equal(body.type, 'rate_limit_error');
      assert.equal(body.code, 'rate_limit_exceeded');
      assert.match(body.message, /2 requests per minute/);
      const retryAfter = Number(error.headers?.get('retry-after'));
      assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
      assert.equal(error.headers?.get('x-ratelimit-limit-requests'), '2');
      assert.equal(error.headers?.get('x-ratelimit-remaining-requests'), '0');
      assert.match(error.headers?.get('x-ratelimit-reset-requests') ?? '', /^\d+s$/);
      return true;
    });

    const other = await models(toDelete.key);
    assert.equal(other.status, 200, 'the limit is per key: another key of the same user is not limited');
    await other.arrayBuffer();
  });

  test('429 on /v1/messages is in the messages shape with anthropic-ratelimit-* headers', async () => {
    const response = await fetch(`${gateway.textUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': limited.key, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'demo-chat', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }),
    });
    assert.equal(response.status, 429);
    const body = (await response.json()) as { type: string; error: { type: string; message: string } };
    assert.equal(body.type, 'error');
    assert.equal(body.error.type, 'rate_limit_error');
    assert.ok(Number(response.headers.get('retry-after')) >= 1);
    assert.equal(response.headers.get('anthropic-ratelimit-requests-limit'), '2');
    assert.equal(response.headers.get('anthropic-ratelimit-requests-remaining'), '0');
    const reset = Date.parse(response.headers.get('anthropic-ratelimit-requests-reset') ?? '');
    assert.ok(!Number.isNaN(reset), 'reset is an RFC 3339 time');
    assert.ok(reset > Date.now() - 1000 && reset <= Date.now() + 61_000, 'within the current minute window');
  });

  test('a key deleted by the admin CLI in another process answers 401 on the very next request', async () => {
    const first = await models(toDelete.key);
    assert.equal(first.status, 200, 'the key works, so the gateway has it cached');
    await first.arrayBuffer();
    const deleted = await gateway.admin(['key', 'delete', toDelete.id]);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.ok(deleted.stdout.includes(toDelete.id));

    const next = await models(toDelete.key);
    assert.equal(next.status, 401);
    const body = (await next.json()) as { error: { code: string; message: string } };
    assert.equal(body.error.code, 'invalid_api_key');
    assert.ok(!body.error.message.includes(toDelete.key));
    const messages = await fetch(`${gateway.textUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': toDelete.key, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'demo-chat', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }),
    });
    assert.equal(messages.status, 401);
    assert.equal(((await messages.json()) as { error: { type: string } }).error.type, 'authentication_error');
  });

  test('owner isolation: a user lists only their own keys, masked; each key acts as its owner', async () => {
    const [bobs, all] = await Promise.all([gateway.adminJson<KeyRow[]>(['key', 'list', '--user', 'bob']), gateway.admin(['key', 'list', '--json'])]);
    assert.equal(all.code, 0, all.stderr);
    assert.deepEqual(bobs.map((k) => k.id), [bobKey.id]);
    assert.equal(bobs[0]!.user, 'bob');
    assert.equal(bobs[0]!.name, 'bobs-laptop');
    assert.equal(bobs[0]!.hint, bobKey.hint);
    const everyone = JSON.parse(all.stdout) as KeyRow[];
    assert.deepEqual(new Set(everyone.map((k) => k.id)), new Set([limited.id, bobKey.id]), 'the deleted key is gone, the others listed');
    assert.deepEqual(new Set(everyone.map((k) => `${k.id}:${k.user}`)), new Set([`${limited.id}:admin`, `${bobKey.id}:bob`]));
    for (const created of [limited, bobKey]) {
      assert.ok(!all.stdout.includes(created.key), 'a full key value is never listed');
      assert.ok(!all.stdout.includes(created.key.slice(3, -4)), 'not even partly');
      assert.ok(all.stdout.includes(created.hint));
    }
    assert.match(bobKey.hint, /^sk-…[A-Za-z0-9]{4}$/);

    // Bob's key works for bob; usage attribution is checked at the end of this file.
    const client = new OpenAI({ baseURL: `${gateway.textUrl}/v1`, apiKey: bobKey.key, maxRetries: 0 });
    const reply = await client.chat.completions.create({ model: 'demo-chat', messages: [{ role: 'user', content: 'bob asks' }] });
    assert.ok(reply.usage!.completion_tokens > 0);
  });

  test('after SIGTERM (exit 0) usage is recorded per user, key and model, errors by status included', async () => {
    const exit = await gateway.stop('SIGTERM');
    assert.deepEqual(exit, { code: 0, signal: null }, gateway.stderr);

    const [bobs, all] = await Promise.all([gateway.adminJson<{ rows: UsageRow[] }>(['usage', '--user', 'bob']), gateway.adminJson<{ rows: UsageRow[] }>(['usage'])]);
    assert.ok(bobs.rows.length > 0);
    assert.ok(bobs.rows.every((r) => r.user === 'bob' && r.keyId === bobKey.id), JSON.stringify(bobs.rows));
    const bobChat = bobs.rows.find((r) => r.model === 'demo-chat');
    assert.ok(bobChat && bobChat.requests === 1 && bobChat.inputTokens > 0 && bobChat.outputTokens > 0, JSON.stringify(bobs.rows));

    const limitedRows = all.rows.filter((r) => r.keyId === limited.id);
    assert.ok(limitedRows.every((r) => r.user === 'admin'));
    const limitedRequests = limitedRows.reduce((sum, r) => sum + r.requests, 0);
    const limited429 = limitedRows.reduce((sum, r) => sum + (r.errors['429'] ?? 0), 0);
    assert.equal(limitedRequests, 4, JSON.stringify(limitedRows));
    assert.equal(limited429, 2, JSON.stringify(limitedRows));
    assert.ok(!all.rows.some((r) => r.keyId === bobKey.id && r.user !== 'bob'));
  });
});
