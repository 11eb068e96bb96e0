// Per-key limits at their boundaries, through the official SDKs in both protocols' error shapes:
// expiry to the second (an injected clock, no sleeping), a budget used up exactly, a model outside
// the key's list, a key's own rate limit; and an edit that takes effect at the next request.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { applyPatch, NO_LIMITS, type LimitsPatch } from '../../server/limits/key-limits.ts';
import { createTestGateway, type TestGateway } from '../helpers/test-app.ts';
import { webLogin } from '../helpers/web-login.ts';

/** The SDKs expose response headers as a Headers object or a plain record, by version. */
function headerOf(error: unknown, name: string): string | null | undefined {
  const headers = (error as { headers?: Headers | Record<string, string> }).headers;
  return headers instanceof Headers ? headers.get(name) : headers?.[name];
}

describe('per-key limits', () => {
  let gateway: TestGateway;
  let baseURL: string;
  let clock = Date.parse('2026-03-10T12:00:00.000Z');
  let userId: string;

  before(async () => {
    gateway = await createTestGateway({ now: () => clock });
    baseURL = await gateway.text.listen({ host: '127.0.0.1', port: 0 });
    userId = (await gateway.store.users.create('owner', 'password-123')).id;
  });

  after(async () => {
    await gateway?.close();
  });

  const keyWith = async (patch: LimitsPatch) => gateway.store.keys.create(userId, null, applyPatch(NO_LIMITS, patch));
  const openai = (key: string) => new OpenAI({ baseURL: `${baseURL}/v1`, apiKey: key, maxRetries: 0 });
  const anthropic = (key: string) => new Anthropic({ baseURL, apiKey: key, maxRetries: 0 });
  const chat = (key: string) => openai(key).chat.completions.create({ model: 'demo-chat', messages: [{ role: 'user', content: 'hi' }] });
  const message = (key: string, model = 'demo-chat') => anthropic(key).messages.create({ model, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });

  test('expiry: valid until the last millisecond, 401 saying when it expired from that instant on', async () => {
    const expiresAt = '2026-03-10T12:00:30.000Z';
    const { key } = await keyWith({ expiresAt });
    clock = Date.parse(expiresAt) - 1;
    assert.ok((await chat(key)).choices[0]);
    clock = Date.parse(expiresAt);
    const openAiError = await chat(key).then(() => undefined, (error: unknown) => error);
    assert.ok(openAiError instanceof OpenAI.AuthenticationError);
    assert.equal(openAiError.status, 401);
    assert.equal(openAiError.code, 'key_expired');
    assert.match(openAiError.message, /expired at 2026-03-10T12:00:30\.000Z/);
    const messagesError = await message(key).then(() => undefined, (error: unknown) => error);
    assert.ok(messagesError instanceof Anthropic.AuthenticationError);
    assert.equal((messagesError.error as { type: string }).type, 'error');
    assert.match(messagesError.message, /expired at 2026-03-10T12:00:30\.000Z/);
    clock = Date.parse('2026-03-10T12:00:00.000Z');
  });

  test('models: another model answers 403 naming it and the list; /v1/models lists only the allowed ones', async () => {
    const { key } = await keyWith({ models: ['demo-embedding'] });
    const openAiError = await chat(key).then(() => undefined, (error: unknown) => error);
    assert.ok(openAiError instanceof OpenAI.PermissionDeniedError);
    assert.equal(openAiError.code, 'model_not_allowed');
    assert.match(openAiError.message, /demo-chat.*limited to: demo-embedding/);
    const messagesError = await message(key).then(() => undefined, (error: unknown) => error);
    assert.ok(messagesError instanceof Anthropic.PermissionDeniedError);
    assert.match(messagesError.message, /demo-chat.*limited to: demo-embedding/);
    const listed = await openai(key).models.list();
    assert.deepEqual(listed.data.map((m) => m.id), ['demo-embedding']);
    const embedding = await openai(key).embeddings.create({ model: 'demo-embedding', input: 'hello' });
    assert.equal(embedding.data.length, 1);
  });

  test('request budget per day: exactly N requests pass, the next gets 429 quota_exceeded until 00:00 UTC', async () => {
    const { key } = await keyWith({ budgets: { ...NO_LIMITS.budgets, requestsDay: 2 } });
    await chat(key);
    await message(key);
    const openAiError = await chat(key).then(() => undefined, (error: unknown) => error);
    assert.ok(openAiError instanceof OpenAI.RateLimitError);
    assert.equal(openAiError.code, 'quota_exceeded');
    assert.match(openAiError.message, /quota, not a rate limit/);
    assert.match(openAiError.message, /daily budget of 2 requests/);
    // 12:00 to midnight UTC is 12 hours.
    assert.equal(headerOf(openAiError, 'retry-after'), String(12 * 3600));
    const messagesError = await message(key).then(() => undefined, (error: unknown) => error);
    assert.ok(messagesError instanceof Anthropic.RateLimitError);
    assert.match(messagesError.message, /quota, not a rate limit/);
    assert.equal(headerOf(messagesError, 'retry-after'), String(12 * 3600));
    // The next UTC day starts afresh.
    clock = Date.parse('2026-03-11T00:00:00.000Z');
    assert.ok((await chat(key)).choices[0]);
    clock = Date.parse('2026-03-10T12:00:00.000Z');
  });

  test('token budget per month: refused once the tokens used reach it, resets on the first of the month', async () => {
    const probe = await keyWith({ budgets: { ...NO_LIMITS.budgets, tokensMonth: 1_000_000 } });
    const used = (await chat(probe.key)).usage!.total_tokens;
    assert.ok(used > 0);
    // A budget of exactly one answer's tokens: the first answer uses it up, the second is refused.
    const { key } = await keyWith({ budgets: { ...NO_LIMITS.budgets, tokensMonth: used } });
    await chat(key);
    const error = await chat(key).then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof OpenAI.RateLimitError);
    assert.match(error.message, new RegExp(`monthly budget of ${used} tokens`));
    assert.equal(headerOf(error, 'retry-after'), String((Date.parse('2026-04-01T00:00:00Z') - clock) / 1000));
    // One token more would have allowed a second request: the boundary is "used ≥ budget".
    const roomy = await keyWith({ budgets: { ...NO_LIMITS.budgets, tokensMonth: used + 1 } });
    await chat(roomy.key);
    assert.ok((await chat(roomy.key)).choices[0]);
  });

  test("a key's own rate limit applies even when the gateway has none", async () => {
    const { key } = await keyWith({ rateLimit: 1 });
    await chat(key);
    const error = await message(key).then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof Anthropic.RateLimitError);
    assert.match(error.message, /limited to 1 requests per minute/);
  });

  test('an owner edit through the web API takes effect at the next request (the cached key is dropped)', async () => {
    const { id, key } = await keyWith({});
    assert.ok((await chat(key)).choices[0]);
    const login = await webLogin(gateway.text, 'owner');
    const res = await gateway.text.inject({
      method: 'PATCH',
      url: `/web/api/keys/${id}`,
      headers: { cookie: login.cookie, 'x-csrf-token': login.csrf },
      payload: { models: ['demo-embedding'], budgetRequestsDay: 5 },
    });
    assert.equal(res.statusCode, 200, res.payload);
    const body = res.json() as { limits: { models: string[] }; budgetStatus: Array<{ name: string; remaining: number }> };
    assert.deepEqual(body.limits.models, ['demo-embedding']);
    assert.deepEqual(body.budgetStatus.map((s) => [s.name, s.remaining]), [['requestsDay', 5]]);
    const error = await chat(key).then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof OpenAI.PermissionDeniedError);
    // A value that is not a limit is refused with what is accepted.
    const wrong = await gateway.text.inject({
      method: 'PATCH',
      url: `/web/api/keys/${id}`,
      headers: { cookie: login.cookie, 'x-csrf-token': login.csrf },
      payload: { expires: 'next tuesday' },
    });
    assert.equal(wrong.statusCode, 400);
    assert.match((wrong.json() as { error: { message: string } }).error.message, /duration like 30d/);
  });

  test('the keys page and the usage page show the limits and what is left of each budget', async () => {
    const login = await webLogin(gateway.text, 'owner');
    const { key } = await keyWith({ budgets: { ...NO_LIMITS.budgets, requestsMonth: 10 } });
    await chat(key);
    const keysPage = await gateway.text.inject({ url: '/keys', headers: { cookie: login.cookie } });
    assert.match(keysPage.payload, /9 of 10 requests this month left/);
    const usagePage = await gateway.text.inject({ url: '/usage', headers: { cookie: login.cookie } });
    assert.match(usagePage.payload, /id="budgets"/);
    assert.match(usagePage.payload, /Requests this month<\/td><td class="num">1<\/td><td class="num">9<\/td>/);
  });
});
