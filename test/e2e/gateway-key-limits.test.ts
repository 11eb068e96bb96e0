// Key limits on the built gateway, set and changed with the admin CLI (another process, same
// database) and met through the official SDKs: a model outside the key's list, a monthly request
// budget used up exactly (the day boundary is covered with an injected clock in test/server/key-limits), and an expiry set in the past, each in both protocols' error shapes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { GatewayProcess, isolateClientEnvironment, type CreatedKey } from '../helpers/gateway-process.ts';

describe('key limits through the built gateway and the admin CLI', () => {
  let gateway: GatewayProcess;
  let key: CreatedKey;
  let restoreEnv: () => void;

  before(async () => {
    restoreEnv = isolateClientEnvironment();
    gateway = await GatewayProcess.start();
    key = await gateway.adminJson<CreatedKey>(['key', 'create', '--user', 'admin', '--name', 'limited', '--models', 'demo-embedding', '--budget-requests-month', '2']);
  });

  after(async () => {
    await gateway?.cleanup();
    restoreEnv?.();
  });

  const openai = () => new OpenAI({ baseURL: `${gateway.textUrl}/v1`, apiKey: key.key, maxRetries: 0 });
  const anthropic = () => new Anthropic({ baseURL: gateway.textUrl, apiKey: key.key, maxRetries: 0 });
  const chat = () => openai().chat.completions.create({ model: 'demo-chat', messages: [{ role: 'user', content: 'hi' }] });
  const message = () => anthropic().messages.create({ model: 'demo-chat', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
  const failure = (promise: Promise<unknown>) => promise.then(() => assert.fail('expected an error'), (error: unknown) => error as Error & { status: number });

  test('a model outside the list: 403 naming it and the list, in both shapes; the list shows only the allowed one', async () => {
    const openAiError = await failure(chat());
    assert.ok(openAiError instanceof OpenAI.PermissionDeniedError);
    assert.match(openAiError.message, /"demo-chat".*limited to: demo-embedding/);
    const messagesError = await failure(message());
    assert.ok(messagesError instanceof Anthropic.PermissionDeniedError);
    assert.match(messagesError.message, /demo-chat.*limited to: demo-embedding/);
    assert.deepEqual((await openai().models.list()).data.map((m) => m.id), ['demo-embedding']);
  });

  test('gwctl admin key update widens the list at once; the monthly budget then allows exactly two requests', async () => {
    const updated = await gateway.adminJson<{ limits: { models: string[] } }>(['key', 'update', key.id, '--models', 'demo-chat,demo-embedding']);
    assert.deepEqual(updated.limits.models, ['demo-chat', 'demo-embedding']);
    assert.ok((await chat()).choices[0]);
    assert.ok((await message()).content[0]);
    const openAiError = await failure(chat());
    assert.ok(openAiError instanceof OpenAI.RateLimitError);
    assert.match(openAiError.message, /monthly budget of 2 requests \(2 requests used; the budget-requests-month budget\)\. This is a quota, not a rate limit/);
    const messagesError = await failure(message());
    assert.ok(messagesError instanceof Anthropic.RateLimitError);
    assert.match(messagesError.message, /quota, not a rate limit/);
    const raw = await fetch(`${gateway.textUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'demo-chat', messages: [{ role: 'user', content: 'hi' }] }),
    });
    assert.equal(raw.status, 429);
    const retryAfter = Number(raw.headers.get('retry-after'));
    const untilMonthEnd = (Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() + 1, 1) - Date.now()) / 1000;
    assert.ok(retryAfter > 0 && Math.abs(retryAfter - untilMonthEnd) < 120, `retry-after ${retryAfter} is the time until the month ends (UTC)`);
    assert.equal(((await raw.json()) as { error: { code: string } }).error.code, 'quota_exceeded');
  });

  test('an expiry in the past: 401 saying it expired and when, in both shapes', async () => {
    await gateway.adminJson(['key', 'update', key.id, '--expires', '2020-01-01T00:00:00Z']);
    const openAiError = await failure(chat());
    assert.ok(openAiError instanceof OpenAI.AuthenticationError);
    assert.match(openAiError.message, /expired at 2020-01-01T00:00:00\.000Z/);
    const messagesError = await failure(message());
    assert.ok(messagesError instanceof Anthropic.AuthenticationError);
    assert.match(messagesError.message, /expired at 2020-01-01T00:00:00\.000Z/);
    assert.ok(!`${gateway.stdout}${gateway.stderr}`.includes(key.key), 'the key value never reaches the logs');
  });
});

describe('the admin CLI refuses a key that could use nothing', () => {
  let gateway: GatewayProcess;
  before(async () => {
    gateway = await GatewayProcess.start();
  });
  after(() => gateway?.cleanup());

  test('models the running gateway does not serve: refused (exit 2) naming the served ones; a served one is taken', async () => {
    const refused = await gateway.admin(['key', 'create', '--user', 'admin', '--models', 'gpt-nonexistent,claude-none']);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /serves none of gpt-nonexistent, claude-none, so the key could use nothing\. Served models: .*demo-chat/);
    const created = await gateway.adminJson<CreatedKey & { limits: { models: string[] } }>(['key', 'create', '--user', 'admin', '--models', 'demo-chat,gpt-nonexistent']);
    assert.deepEqual(created.limits.models, ['demo-chat', 'gpt-nonexistent'], 'one served model is enough');
    const update = await gateway.admin(['key', 'update', created.id, '--models', 'gpt-nonexistent']);
    assert.equal(update.code, 2, update.stderr);
    assert.match(update.stderr, /serves none of gpt-nonexistent/);
  });
});
