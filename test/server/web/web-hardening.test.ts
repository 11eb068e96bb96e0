// The web context under hostile input and for private data: body errors of the JSON calls answer
// 400 in their shape, repeated query parameters answer 400, private pages and JSON are never
// cached, HSTS when asked for on an https site, a cap on keys per user with paged lists, an idle
// timeout for sessions, and the usage CSV with a formula hidden after a `;`.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestGateway, type TestGateway } from '../../helpers/test-app.ts';
import { webLogin, type WebLogin } from '../../helpers/web-login.ts';

describe('web hardening', () => {
  let gw: TestGateway;
  let alice: WebLogin;
  before(async () => {
    gw = await createTestGateway({ settings: { maxKeysPerUser: 3 } });
    await gw.store.users.create('alice', 'password-123', { isAdmin: true });
    alice = await webLogin(gw.text, 'alice');
  });
  after(() => gw.close());

  const api = (method: 'POST' | 'GET', url: string, payload?: string, contentType = 'application/json') =>
    gw.text.inject({ method, url, headers: { cookie: alice.cookie, 'x-csrf-token': alice.csrf, 'content-type': contentType }, ...(payload !== undefined ? { payload } : {}) });

  test('malformed, empty and too-deep JSON on /web/api answers 400 in the JSON error shape', async () => {
    for (const [what, body] of [['malformed', '{"name":'], ['empty', ''], ['too deep', '['.repeat(500) + ']'.repeat(500)], ['not UTF-8 JSON', '\u0000']] as const) {
      for (const url of ['/web/api/keys', '/web/api/chat', '/web/api/images']) {
        const res = await api('POST', url, body);
        assert.equal(res.statusCode, 400, `${what} on ${url}: ${res.payload}`);
        assert.equal(typeof res.json().error.message, 'string');
        assert.equal(res.headers['x-content-type-options'], 'nosniff', `${what} on ${url}: ${JSON.stringify(res.headers)} ${res.payload}`);
      }
    }
  });

  test('repeated query parameters answer 400 with the security headers, on pages and JSON alike', async () => {
    for (const url of ['/usage/requests?model=a&model=b', '/usage?period=7d&period=30d', '/keys?page=1&page=2', '/web/api/conversations?q=a&q=b', '/login?next=/keys&next=/usage']) {
      const res = await gw.text.inject({ url, headers: { cookie: alice.cookie } });
      assert.equal(res.statusCode, 400, url);
      assert.match(res.payload, /more than once/);
      assert.equal(res.headers['x-frame-options'], 'DENY', url);
      assert.equal(res.headers['cache-control'], 'no-store', url);
    }
  });

  test('pages and JSON with private data are no-store; static assets stay cacheable', async () => {
    for (const url of ['/apps/chat', '/apps/images', '/admin', '/keys', '/usage', '/usage/requests', '/usage.csv', '/web/api/keys', '/web/api/conversations', '/web/api/models']) {
      const res = await gw.text.inject({ url, headers: { cookie: alice.cookie } });
      assert.equal(res.statusCode, 200, url);
      assert.equal(res.headers['cache-control'], 'no-store', url);
    }
    assert.match(String((await gw.text.inject({ url: '/login' })).headers['content-security-policy']), /object-src 'none'/);
    const css = await gw.text.inject({ url: '/assets/app.css' });
    assert.match(String(css.headers['cache-control']), /max-age=3600/);
  });

  test('no HSTS unless asked for, and only for an https public URL', async () => {
    assert.equal((await gw.text.inject({ url: '/login' })).headers['strict-transport-security'], undefined);
    gw.deps.settings.hstsMaxAge = 31_536_000;
    try {
      assert.equal((await gw.text.inject({ url: '/login' })).headers['strict-transport-security'], undefined, 'the public URL is http');
      gw.deps.settings.publicUrl = 'https://gw.test';
      assert.equal((await gw.text.inject({ url: '/login' })).headers['strict-transport-security'], 'max-age=31536000');
    } finally {
      gw.deps.settings.hstsMaxAge = undefined;
      gw.deps.settings.publicUrl = 'http://gw.test';
    }
  });

  test('keys per user are capped (409 on the page, its JSON call and the operator API) and listed a page at a time', async () => {
    for (const name of ['one', 'two', 'three']) assert.equal((await api('POST', '/web/api/keys', JSON.stringify({ name }))).statusCode, 201);
    const json = await api('POST', '/web/api/keys', JSON.stringify({ name: 'four' }));
    assert.equal(json.statusCode, 409);
    assert.match(json.json().error.message, /already has 3 keys, the most allowed \(3\)/);
    const page = await gw.text.inject({
      method: 'POST',
      url: '/keys',
      headers: { cookie: alice.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ _csrf: alice.csrf, name: 'four' }).toString(),
    });
    assert.equal(page.statusCode, 409);
    assert.match(page.payload, /the most allowed/);
    const { token } = await gw.store.operatorTokens.create('cap-test');
    const operator = await gw.text.inject({ method: 'POST', url: '/admin/api/v1/keys', headers: { authorization: `Bearer ${token}` }, payload: { user: 'alice', name: 'four' } });
    assert.equal(operator.statusCode, 409);
    assert.equal(operator.json().error.code, 'too_many_keys');
    assert.equal((await gw.store.keys.listForUser((await gw.store.users.findByName('alice'))!.id)).length, 3);

    const first = (await api('GET', '/web/api/keys?limit=2')).json();
    assert.deepEqual([first.keys.length, first.total, first.nextOffset], [2, 3, 2]);
    const second = (await api('GET', '/web/api/keys?limit=2&offset=2')).json();
    assert.deepEqual([second.keys.length, second.nextOffset], [1, null]);
    assert.equal(new Set([...first.keys, ...second.keys].map((k: { id: string }) => k.id)).size, 3);
    assert.equal((await api('GET', '/web/api/keys?limit=1000')).statusCode, 400);
    assert.equal((await gw.text.inject({ url: '/keys?page=x', headers: { cookie: alice.cookie } })).statusCode, 400);
  });

  test('the keys page shows 50 keys at a time with links to the others', async () => {
    const bob = await gw.store.users.create('bob', 'password-123');
    for (let i = 0; i < 55; i += 1) await gw.store.keys.create(bob.id, `bob-${String(i).padStart(2, '0')}`);
    const login = await webLogin(gw.text, 'bob');
    const first = await gw.text.inject({ url: '/keys', headers: { cookie: login.cookie } });
    assert.equal((first.payload.match(/<tr data-key-id=/g) ?? []).length, 50);
    assert.match(first.payload, /Page 1 of 2 \(55 keys\)/);
    assert.match(first.payload, /href="\/keys\?page=2"/);
    const second = await gw.text.inject({ url: '/keys?page=2', headers: { cookie: login.cookie } });
    assert.equal((second.payload.match(/<tr data-key-id=/g) ?? []).length, 5);
  });

  test('a key name with a formula after `;` reaches the usage CSV neutralised', async () => {
    const carol = await gw.store.users.create('carol', 'password-123');
    const key = await gw.store.keys.create(carol.id, 'x;=1+2;alice');
    gw.deps.usage.record({ userId: carol.id, keyId: key.id, model: 'demo-chat', inputTokens: 1, outputTokens: 1, status: 200 });
    await gw.deps.usage.flush();
    const login = await webLogin(gw.text, 'carol');
    const csv = await gw.text.inject({ url: '/usage.csv', headers: { cookie: login.cookie } });
    assert.equal(csv.statusCode, 200);
    assert.match(csv.payload, /"x;'=1\+2;alice sk-[^"]*"/);
    // Read as a `;` locale reads it: no cell may start a formula.
    for (const line of csv.payload.split('\r\n')) {
      for (const cell of line.split(/[;,]/)) assert.doesNotMatch(cell, /^\s*"?[=+\-@]/, line);
    }
  });
});

describe('session idle timeout', () => {
  test('a session unused for longer than the idle timeout ends; use keeps it alive', async () => {
    let clock = Date.parse('2026-11-27T08:00:00Z');
    const gw = await createTestGateway({ now: () => clock, settings: { sessionIdleMs: 30 * 60_000 } });
    try {
      await gw.store.users.create('dave', 'password-123');
      const { cookie } = await webLogin(gw.text, 'dave');
      const keys = () => gw.text.inject({ url: '/keys', headers: { cookie } });
      clock += 20 * 60_000;
      assert.equal((await keys()).statusCode, 200);
      clock += 20 * 60_000;
      assert.equal((await keys()).statusCode, 200, '40 minutes after login, but used 20 minutes ago');
      clock += 31 * 60_000;
      const ended = await keys();
      assert.equal(ended.statusCode, 302);
      assert.equal(ended.headers.location, '/login?next=%2Fkeys');
      assert.equal((await gw.text.inject({ url: '/web/api/keys', headers: { cookie } })).statusCode, 401);
    } finally {
      await gw.close();
    }
  });
});
