// Per-user limits, the upper bound for all of a user's keys, through the official SDKs: the user's
// model list bounds every key (a key can narrow it, not widen it), and a user budget counts all
// their keys together; operators set them on /admin, and the change reaches cached keys at once.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { applyPatch, NO_BUDGETS, NO_LIMITS } from '../../server/limits/key-limits.ts';
import { createTestGateway, type TestGateway } from '../helpers/test-app.ts';
import { webLogin } from '../helpers/web-login.ts';

describe('per-user limits', () => {
  let gateway: TestGateway;
  let baseURL: string;
  const clock = Date.parse('2026-03-10T12:00:00.000Z');

  before(async () => {
    gateway = await createTestGateway({ now: () => clock });
    baseURL = await gateway.text.listen({ host: '127.0.0.1', port: 0 });
    await gateway.store.users.create('operator', 'password-123', { isAdmin: true });
  });

  after(async () => {
    await gateway?.close();
  });

  const openai = (key: string) => new OpenAI({ baseURL: `${baseURL}/v1`, apiKey: key, maxRetries: 0 });
  const chat = (key: string) => openai(key).chat.completions.create({ model: 'demo-chat', messages: [{ role: 'user', content: 'hi' }] });
  const message = (key: string) => new Anthropic({ baseURL, apiKey: key, maxRetries: 0 }).messages.create({ model: 'demo-chat', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
  const failure = (promise: Promise<unknown>) => promise.then(() => assert.fail('expected an error'), (error: unknown) => error as Error);

  test("the user's models bound every key: a key's own list cannot widen them", async () => {
    const user = await gateway.store.users.create('bounded', 'password-123');
    await gateway.store.users.setLimits(user.id, { models: ['demo-embedding'] });
    const plain = await gateway.store.keys.create(user.id, null);
    const wider = await gateway.store.keys.create(user.id, null, applyPatch(NO_LIMITS, { models: ['demo-chat', 'demo-embedding'] }));
    for (const key of [plain.key, wider.key]) {
      const error = await failure(chat(key));
      assert.ok(error instanceof OpenAI.PermissionDeniedError);
      assert.match(error.message, /"demo-chat".*limited to: demo-embedding/);
      assert.deepEqual((await openai(key).models.list()).data.map((m) => m.id), ['demo-embedding']);
    }
    const messagesError = await failure(message(plain.key));
    assert.ok(messagesError instanceof Anthropic.PermissionDeniedError);
  });

  test('a user budget counts all their keys together, exactly to the budget', async () => {
    const user = await gateway.store.users.create('budgeted', 'password-123');
    await gateway.store.users.setLimits(user.id, { budgets: { ...NO_BUDGETS, requestsDay: 3 } });
    const [a, b] = [await gateway.store.keys.create(user.id, 'a'), await gateway.store.keys.create(user.id, 'b')];
    await chat(a.key);
    await message(b.key);
    await chat(b.key);
    const openAiError = await failure(chat(a.key));
    assert.ok(openAiError instanceof OpenAI.RateLimitError);
    assert.match(openAiError.message, /account \(all its keys together\) has used its daily budget of 3 requests \(3 requests used; the budget-requests-day budget\)\. This is a quota, not a rate limit/);
    const messagesError = await failure(message(b.key));
    assert.ok(messagesError instanceof Anthropic.RateLimitError);
    assert.match(messagesError.message, /quota, not a rate limit/);
  });

  test('operators set limits on /admin; cached keys follow at the next request; the owner sees what is left on /usage', async () => {
    const user = await gateway.store.users.create('managed', 'password-123');
    const { key } = await gateway.store.keys.create(user.id, null);
    assert.ok((await chat(key)).choices[0]);
    const operator = await webLogin(gateway.text, 'operator');
    const form = await gateway.text.inject({ url: `/admin/users/${user.id}/limits`, headers: { cookie: operator.cookie } });
    assert.equal(form.statusCode, 200);
    assert.match(form.payload, /name="budgetTokensMonth"/);
    assert.doesNotMatch(form.payload, /name="expires"/);
    const saved = await gateway.text.inject({
      method: 'POST',
      url: `/admin/users/${user.id}/limits`,
      headers: { cookie: operator.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ _csrf: operator.csrf, models: 'demo-embedding', budgetTokensMonth: '', budgetTokensDay: '', budgetRequestsDay: '', budgetRequestsMonth: '10' }).toString(),
    });
    assert.equal(saved.statusCode, 303, saved.payload);
    assert.ok(await failure(chat(key)) instanceof OpenAI.PermissionDeniedError);
    const admin = await gateway.text.inject({ url: '/admin', headers: { cookie: operator.cookie } });
    assert.match(admin.payload, /models: demo-embedding/);
    assert.match(admin.payload, /10 of 10 requests this month left/);
    const owner = await webLogin(gateway.text, 'managed');
    const usage = await gateway.text.inject({ url: '/usage', headers: { cookie: owner.cookie } });
    assert.match(usage.payload, /Your account \(all keys\)/);
    const keysPage = await gateway.text.inject({ url: '/keys', headers: { cookie: owner.cookie } });
    assert.match(keysPage.payload, /id="account-limits"/);
    assert.match(keysPage.payload, /models: demo-embedding.*10 of 10 requests this month left/s);
    // The owner cannot give a key a model the account may not use.
    const widened = await gateway.text.inject({
      method: 'POST',
      url: '/web/api/keys',
      headers: { cookie: owner.cookie, 'x-csrf-token': owner.csrf },
      payload: { name: 'wider', models: ['demo-chat'] },
    });
    assert.equal(widened.statusCode, 400);
    assert.match(widened.json().error.message, /may not use demo-chat: an operator limited it to demo-embedding/);
    const narrowed = await gateway.text.inject({
      method: 'POST',
      url: '/web/api/keys',
      headers: { cookie: owner.cookie, 'x-csrf-token': owner.csrf },
      payload: { name: 'within', models: ['demo-embedding'] },
    });
    assert.equal(narrowed.statusCode, 201);
    // Only operators reach the form.
    const denied = await gateway.text.inject({ url: `/admin/users/${user.id}/limits`, headers: { cookie: owner.cookie } });
    assert.equal(denied.statusCode, 403);
  });
});
