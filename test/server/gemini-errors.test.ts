// The Gemini API's failures in Gemini's envelope ({"error":{"code","message","status"}}) with the
// same causes and remedies as the other routes: key forms (header, query, Bearer) and their
// problems named without the value, a rate limit with Google's RetryInfo (which Gemini clients obey),
// an unknown model or method, a doubled version path.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestGateway, type TestGateway } from '../helpers/test-app.ts';

const BODY = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });

describe('Gemini API errors', () => {
  let gw: TestGateway;
  let key: string;
  before(async () => {
    gw = await createTestGateway();
    key = (await gw.userWithKey()).key;
  });
  after(() => gw.close());

  const generate = (url: string, headers: Record<string, string>) => gw.text.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', ...headers }, payload: BODY });

  test('no key, a wrong key, a quoted key: 401 UNAUTHENTICATED naming the problem, never the value', async () => {
    const none = await generate('/v1beta/models/demo-chat:generateContent', {});
    assert.equal(none.statusCode, 401);
    assert.equal(none.json().error.status, 'UNAUTHENTICATED');
    assert.equal(none.json().error.code, 401);
    assert.match(none.json().error.message, /x-goog-api-key/);
    const wrong = await generate('/v1beta/models/demo-chat:generateContent?key=sk-not-a-real-key-123456', {});
    assert.equal(wrong.statusCode, 401);
    assert.ok(!wrong.body.includes('sk-not-a-real-key-123456'));
    const quoted = await generate('/v1beta/models/demo-chat:generateContent', { 'x-goog-api-key': `"${key}"` });
    assert.equal(quoted.statusCode, 401);
    assert.match(quoted.json().error.message, /x-goog-api-key header is wrapped in quotes/);
    assert.ok(!quoted.body.includes(key));
  });

  test('a key in the query is found after other parameters and with its name percent-encoded; ?alt=sse alone is no key', async () => {
    for (const query of [`?key=${key}`, `?alt=sse&key=${key}`, `?alt=sse&k%65y=${key}`]) {
      const answer = await generate(`/v1beta/models/demo-chat:streamGenerateContent${query}`, {});
      assert.equal(answer.statusCode, 200, `${query.replace(key, '<key>')}: ${answer.body.slice(0, 200)}`);
    }
    const none = await generate('/v1beta/models/demo-chat:streamGenerateContent?alt=sse', {});
    assert.equal(none.statusCode, 401);
    assert.equal(none.json().error.status, 'UNAUTHENTICATED');
  });

  test('unknown model (the served ones listed), unknown method, doubled version path', async () => {
    const model = await generate('/v1beta/models/no-such-model:generateContent', { 'x-goog-api-key': key });
    assert.equal(model.statusCode, 404);
    assert.equal(model.json().error.status, 'NOT_FOUND');
    assert.match(model.json().error.message, /Served here: demo-chat.*\/v1beta\/models lists/);
    const method = await generate('/v1beta/models/demo-chat:frobnicate', { 'x-goog-api-key': key });
    assert.equal(method.statusCode, 404);
    assert.match(method.json().error.message, /generateContent, streamGenerateContent, countTokens/);
    const doubled = await generate('/v1beta/v1beta/models/demo-chat:generateContent', { 'x-goog-api-key': key });
    assert.equal(doubled.statusCode, 404);
    assert.equal(doubled.json().error.status, 'NOT_FOUND');
    assert.match(doubled.json().error.message, /carries the API version twice.*without \/v1 or \/v1beta/);
  });

  test('a body that is not a request is 400 INVALID_ARGUMENT naming the field', async () => {
    const bad = await gw.text.inject({ method: 'POST', url: '/v1beta/models/demo-chat:generateContent', headers: { 'content-type': 'application/json', 'x-goog-api-key': key }, payload: JSON.stringify({ contents: [], generationConfig: { seed: 3 } }) });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().error.status, 'INVALID_ARGUMENT');
    assert.match(bad.json().error.message, /`contents`/);
  });

  test('the per-key rate limit answers 429 RESOURCE_EXHAUSTED with a RetryInfo delay', async () => {
    const limited = await createTestGateway({ rateLimitRpm: 1 });
    try {
      const own = (await limited.userWithKey()).key;
      const send = () => limited.text.inject({ method: 'POST', url: '/v1beta/models/demo-chat:generateContent', headers: { 'content-type': 'application/json', authorization: `Bearer ${own}` }, payload: BODY });
      assert.equal((await send()).statusCode, 200);
      const second = await send();
      assert.equal(second.statusCode, 429);
      const error = second.json().error;
      assert.equal(error.status, 'RESOURCE_EXHAUSTED');
      const retry = error.details.find((d: any) => d['@type'] === 'type.googleapis.com/google.rpc.RetryInfo');
      assert.match(retry.retryDelay, /^\d+s$/);
      assert.equal(`${second.headers['retry-after']}s`, retry.retryDelay);
    } finally {
      await limited.close();
    }
  });
});
