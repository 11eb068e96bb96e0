import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestGateway, type TestGateway } from '../../helpers/test-app.ts';

let gw: TestGateway;
before(async () => {
  gw = await createTestGateway();
  await gw.store.users.create('alice', 'alice-password', { isAdmin: false });
});
after(() => gw.close());

function cookieOf(setCookie: string | string[] | undefined, name: string): string | undefined {
  const list = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  return list.find((c) => c.startsWith(`${name}=`));
}

async function loginForm() {
  const page = await gw.text.inject({ url: '/login?next=/usage' });
  const token = /name="_csrf" value="([^"]+)"/.exec(page.payload)![1]!;
  const cookie = cookieOf(page.headers['set-cookie'], 'gw_login_csrf')!.split(';')[0]!;
  return { token, cookie };
}

async function login(username: string, password: string, extraCookie = '', remoteAddress = '127.0.0.1') {
  const { token, cookie } = await loginForm();
  return gw.text.inject({
    method: 'POST',
    url: '/login',
    remoteAddress,
    headers: { cookie: [cookie, extraCookie].filter(Boolean).join('; '), 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ _csrf: token, username, password, next: '/usage' }).toString(),
  });
}

describe('login', () => {
  test('success sets an HttpOnly SameSite=Lax session cookie and returns to the page asked for', async () => {
    const res = await login('alice', 'alice-password');
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/usage');
    const cookie = cookieOf(res.headers['set-cookie'], 'gw_session')!;
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Lax/);
    assert.doesNotMatch(cookie, /Secure/, 'not over plain http');
  });

  test('every login issues a new session token and drops the old one (rotation)', async () => {
    const first = cookieOf((await login('alice', 'alice-password')).headers['set-cookie'], 'gw_session')!.split(';')[0]!;
    const second = cookieOf((await login('alice', 'alice-password', first)).headers['set-cookie'], 'gw_session')!.split(';')[0]!;
    assert.notEqual(first, second);
    assert.equal((await gw.text.inject({ url: '/keys', headers: { cookie: first } })).statusCode, 302, 'the old session is gone');
    assert.equal((await gw.text.inject({ url: '/keys', headers: { cookie: second } })).statusCode, 200);
  });

  test('a login POST without the form token is refused (login CSRF)', async () => {
    const res = await gw.text.inject({
      method: 'POST',
      url: '/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'username=alice&password=alice-password',
    });
    assert.equal(res.statusCode, 403);
    assert.equal(cookieOf(res.headers['set-cookie'], 'gw_session'), undefined);
  });

  test('failed attempts lock the guessing address for that name, never the person at another address', async () => {
    await gw.store.users.create('target', 'target-password');
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1) statuses.push((await login('target', `wrong-${i}`, '', '203.0.113.7')).statusCode);
    assert.deepEqual(statuses.slice(0, 10), Array(10).fill(401));
    assert.equal(statuses[10], 429);
    const locked = await login('target', 'target-password', '', '203.0.113.7');
    assert.equal(locked.statusCode, 429, 'the guessing address waits even with the right password');
    assert.ok(Number(locked.headers['retry-after']) > 0);
    const person = await login('target', 'target-password', '', '198.51.100.20');
    assert.equal(person.statusCode, 303, 'the real person, from their own address, gets in (paced, not locked)');
    assert.ok(cookieOf(person.headers['set-cookie'], 'gw_session'));
  });

  test('only same-site paths are used as the return address', async () => {
    for (const next of ['//evil.example/x', 'https://evil.example/', '/\\evil.example']) {
      const page = await gw.text.inject({ url: `/login?next=${encodeURIComponent(next)}` });
      assert.equal(page.statusCode, 400, next);
      assert.match(page.payload, /name="next" value="\/keys"/, next);
    }
  });
});

describe('pages and calls that need a session', () => {
  test('pages redirect to /login with the way back; calls answer 401 JSON', async () => {
    for (const path of ['/keys', '/usage', '/apps/chat', '/apps/images', '/admin', '/keys/key_x/delete']) {
      const res = await gw.text.inject({ url: path });
      assert.equal(res.statusCode, 302, path);
      assert.equal(res.headers.location, `/login?next=${encodeURIComponent(path)}`);
    }
    const api = await gw.text.inject({ url: '/web/api/keys' });
    assert.equal(api.statusCode, 401);
    assert.match(api.json().error.message, /Log in again/);
  });

  test('state-changing calls need the session’s CSRF token and a same-site origin', async () => {
    const session = cookieOf((await login('alice', 'alice-password')).headers['set-cookie'], 'gw_session')!.split(';')[0]!;
    const page = await gw.text.inject({ url: '/keys', headers: { cookie: session } });
    const csrf = /name="csrf-token" content="([^"]+)"/.exec(page.payload)![1]!;
    const create = (headers: Record<string, string>) =>
      gw.text.inject({ method: 'POST', url: '/web/api/keys', headers: { cookie: session, 'content-type': 'application/json', ...headers }, payload: { name: 'x' } });
    assert.equal((await create({})).statusCode, 403);
    assert.equal((await create({ 'x-csrf-token': 'wrong' })).statusCode, 403);
    assert.equal((await create({ 'x-csrf-token': csrf, origin: 'http://evil.example' })).statusCode, 403);
    const ok = await create({ 'x-csrf-token': csrf, origin: 'http://localhost:80', host: 'localhost:80' });
    assert.equal(ok.statusCode, 201);
    assert.match(ok.json().key, /^sk-/);
    assert.equal(ok.headers['cache-control'], 'no-store');
  });

  test('HTML responses carry a strict content security policy', async () => {
    const res = await gw.text.inject({ url: '/login' });
    assert.match(String(res.headers['content-security-policy']), /script-src 'self'/);
    assert.equal(res.headers['x-frame-options'], 'DENY');
  });
});

describe('keys page without JavaScript', () => {
  test('the form answer shows the new key once (no per-instance memory), and delete goes through a confirmation', async () => {
    const session = cookieOf((await login('alice', 'alice-password')).headers['set-cookie'], 'gw_session')!.split(';')[0]!;
    const csrf = /name="csrf-token" content="([^"]+)"/.exec((await gw.text.inject({ url: '/keys', headers: { cookie: session } })).payload)![1]!;
    const form = (url: string, fields: Record<string, string>) =>
      gw.text.inject({ method: 'POST', url, headers: { cookie: session, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString() });
    const first = await form('/keys', { _csrf: csrf, name: 'no-js <b>' });
    assert.equal(first.statusCode, 201);
    const key = /id="new-key-value">(sk-[0-9A-Za-z]{48})</.exec(first.payload)?.[1];
    assert.ok(key, 'shown in the answer to the form');
    assert.match(first.payload, /no-js &lt;b&gt;/, 'the name is escaped');
    assert.equal(first.headers['cache-control'], 'no-store');
    const second = await gw.text.inject({ url: '/keys', headers: { cookie: session } });
    assert.ok(!second.payload.includes(key), 'and never again');
    const id = (await gw.store.keys.listForUser((await gw.store.users.findByName('alice'))!.id)).find((k) => k.name === 'no-js <b>')!.id;
    const confirm = await gw.text.inject({ url: `/keys/${id}/delete`, headers: { cookie: session } });
    assert.match(confirm.payload, /answer <strong>401<\/strong>|get <strong>401<\/strong>/);
    assert.equal((await form(`/keys/${id}/delete`, {})).statusCode, 403, 'no token, no delete');
    const deleted = await form(`/keys/${id}/delete`, { _csrf: csrf });
    assert.equal(deleted.statusCode, 303);
    assert.equal((await gw.text.inject({ url: '/v1/models', headers: { authorization: `Bearer ${key}` } })).statusCode, 401);
  });
});
