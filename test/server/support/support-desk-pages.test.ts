// The support desk in one process (app.inject): the /admin/support and /admin/requests/<id> pages
// for operators only, keys deleted with their account found as deleted, and the operator API's
// bundle verdict with its bad inputs answered 400 in the API's error shape.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { bearer, createTestGateway, type TestGateway } from '../../helpers/test-app.ts';
import { webLogin, type WebLogin } from '../../helpers/web-login.ts';

describe('support desk pages and bundle API', () => {
  let gateway: TestGateway;
  let ops: WebLogin;
  let token: string;

  before(async () => {
    gateway = await createTestGateway({ requestLog: true });
    await gateway.store.users.create('ops', 'password-123', { isAdmin: true });
    ops = await webLogin(gateway.text, 'ops');
    token = (await gateway.store.operatorTokens.create('support')).token;
  });
  after(() => gateway.close());

  const chat = (key: string, path = '/v1/chat/completions') =>
    gateway.text.inject({ method: 'POST', url: path, headers: bearer(key), payload: { model: 'demo-chat', messages: [{ role: 'user', content: 'hi' }] } });
  const flush = () => gateway.deps.requestLog!.flush();

  test('a key deleted with its account: KEY_DELETED, by the account deletion; the page says so, a plain user cannot see it', async () => {
    const { userId, key, keyId } = await gateway.userWithKey('carol');
    await gateway.store.audit.record({ actor: 'user:ops', address: '127.0.0.1', action: 'user.delete', target: 'user:carol' });
    await gateway.store.users.delete(userId);
    const refused = await chat(key);
    assert.equal(refused.statusCode, 401);
    const id = String(refused.headers['x-request-id']);
    await flush();

    const page = await gateway.text.inject({ url: `/admin/requests/${id}`, headers: { cookie: ops.cookie } });
    assert.equal(page.statusCode, 200);
    assert.match(page.payload, /data-cause="KEY_DELETED"/);
    assert.match(page.payload, new RegExp(`${keyId}.*of carol was deleted at .* by user:ops \\(with the account\\)`));
    assert.ok(!page.payload.includes(key), 'never the key value');

    const search = await gateway.text.inject({ url: `/admin/support?q=${encodeURIComponent(id)}`, headers: { cookie: ops.cookie } });
    assert.equal(search.statusCode, 303);
    assert.equal(search.headers.location, `/admin/requests/${id}`);
    const byKey = await gateway.text.inject({ url: `/admin/support?q=${encodeURIComponent(keyId)}`, headers: { cookie: ops.cookie } });
    assert.match(byKey.payload, /<td>deleted<div class="muted">/);

    const unknown = await gateway.text.inject({ url: '/admin/requests/req_nothing', headers: { cookie: ops.cookie } });
    assert.equal(unknown.statusCode, 404);
    assert.match(unknown.payload, /No request with id req_nothing/);

    const plain = await gateway.userWithKey('dave');
    const daveLogin = await webLogin(gateway.text, 'dave');
    const forbidden = await gateway.text.inject({ url: `/admin/requests/${id}`, headers: { cookie: daveLogin.cookie } });
    assert.notEqual(forbidden.statusCode, 200, 'operators only');
    assert.ok(plain);
  });

  test('POST /admin/api/v1/support: the bundle\'s request ids looked up, one verdict; a bad bundle is a 400 that says what to send', async () => {
    const { key } = await gateway.userWithKey('erin');
    const ok = await chat(key);
    const wrong = await chat(key, '/v1/v1/chat/completions');
    await flush();
    const bundle = {
      schemaVersion: 1,
      kind: 'gwctl-support-bundle',
      createdAt: new Date().toISOString(),
      verdict: { cause: 'URL_NOT_FOUND', observed: 'the address answered 404' },
      checks: [],
      requestIds: [String(ok.headers['x-request-id']), String(wrong.headers['x-request-id']), 'req_elsewhere'],
    };
    const res = await gateway.text.inject({ method: 'POST', url: '/admin/api/v1/support', headers: bearer(token), payload: bundle });
    assert.equal(res.statusCode, 200, res.payload);
    const body = res.json();
    assert.equal(body.verdict.cause, 'URL_DOUBLE_V1');
    assert.equal(body.verdict.source, 'service');
    assert.deepEqual(body.requests.map((r: { cause: string }) => r.cause).sort(), ['OK', 'URL_DOUBLE_V1']);
    assert.deepEqual(body.unknownRequestIds, ['req_elsewhere']);

    const nothingHere = await gateway.text.inject({ method: 'POST', url: '/admin/api/v1/support', headers: bearer(token), payload: { ...bundle, requestIds: ['req_a', 'req_b'] } });
    assert.equal(nothingHere.json().verdict.cause, 'URL_NOT_FOUND', 'nothing recorded: the user\'s diagnosis decides');
    assert.match(nothingHere.json().verdict.facts[0], /None of the 2 request ids/);

    for (const [payload, pattern] of [
      [{ ...bundle, kind: 'something-else' }, /not a support bundle/],
      [{ ...bundle, schemaVersion: 7 }, /version 7 is not known/],
      [{ ...bundle, requestIds: 'req_a' }, /"requestIds" must be a list/],
    ] as const) {
      const bad = await gateway.text.inject({ method: 'POST', url: '/admin/api/v1/support', headers: bearer(token), payload });
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().error.code, 'invalid_bundle');
      assert.match(bad.json().error.message, pattern);
    }
    const noToken = await gateway.text.inject({ method: 'POST', url: '/admin/api/v1/support', payload: bundle });
    assert.equal(noToken.statusCode, 401);
  });

  test('GET /admin/api/v1/keys/find and /users/{name}/overview; the OpenAPI document names their schemas', async () => {
    const { key, keyId } = await gateway.userWithKey('fay');
    await chat(key);
    await flush();
    const hint = `sk-…${key.slice(-4)}`;
    const found = await gateway.text.inject({ url: `/admin/api/v1/keys/find?q=${encodeURIComponent(hint)}`, headers: bearer(token) });
    assert.equal(found.statusCode, 200);
    assert.ok(found.json().keys.some((k: { keyId: string; state: string; owner: string }) => k.keyId === keyId && k.state === 'active' && k.owner === 'fay'));
    const missingQuery = await gateway.text.inject({ url: '/admin/api/v1/keys/find', headers: bearer(token) });
    assert.equal(missingQuery.statusCode, 400);
    const overview = await gateway.text.inject({ url: '/admin/api/v1/users/fay/overview', headers: bearer(token) });
    assert.equal(overview.json().recentRequests, 1);
    assert.equal((await gateway.text.inject({ url: '/admin/api/v1/users/nobody/overview', headers: bearer(token) })).statusCode, 404);
    const openapi = (await gateway.text.inject({ url: '/admin/api/openapi.json' })).json();
    for (const name of ['RequestVerdict', 'KeyFind', 'UserOverview', 'SupportVerdict']) assert.ok(openapi.components.schemas[name], name);
    assert.ok(openapi.paths['/admin/api/v1/requests/{id}']);
  });
});
