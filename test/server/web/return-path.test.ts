// `next` after login and every redirect built from input: only paths of this site, resolved as a
// browser would resolve them. The classic bypasses are refused (400, the form falls back to /keys),
// and no answer ever carries a Location that leaves the site.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { resolveReturnPath } from '../../../server/web/session/return-path.ts';
import { createTestGateway, type TestGateway } from '../../helpers/test-app.ts';
import { webLogin } from '../../helpers/web-login.ts';

export const BYPASSES = [
  '/\t/evil.example',
  '/\n/evil.example',
  '/\r\n/evil.example',
  '\t//evil.example',
  '/ /evil.example',
  '//evil.example',
  '///evil.example',
  '/\\evil.example',
  '\\\\evil.example',
  '/\\/evil.example',
  '/.//evil.example',
  '/..//evil.example',
  '/./..//evil.example',
  'https://evil.example/',
  'http:evil.example',
  '//evil.example%2F..',
  '/\u3000/evil.example',
  '/\u00a0/evil.example',
  '//evil\uff0eexample',
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  ' javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  '/\u0001',
  '/keys\u0000',
];

/** Odd, but paths of this site once resolved: accepted, and their Location stays here. */
export const SAFE_ODDITIES = ['/%2F%2Fevil.example', '/%2f%5cevil.example', '/%09/evil.example', '/\uff0e\uff0e//evil.example', '/\uff0f\uff0fevil.example'];

const ORIGIN = 'http://gw.test';

/** Whether a Location header would take the browser off this site. */
function leavesSite(location: string): boolean {
  return new URL(location, ORIGIN).origin !== ORIGIN || /[\u0000-\u0020\\]/.test(location);
}

describe('return paths', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await createTestGateway();
    await gw.store.users.create('alice', 'password-123');
  });
  after(() => gw.close());

  test('every bypass of the list is refused by the resolver', () => {
    for (const value of BYPASSES) assert.equal(resolveReturnPath(value).ok, false, JSON.stringify(value));
    for (const value of SAFE_ODDITIES) {
      const resolved = resolveReturnPath(value);
      assert.ok(resolved.ok, JSON.stringify(value));
      assert.equal(leavesSite(resolved.path), false, JSON.stringify(value));
    }
    // Same-site paths keep their query; encoded slashes and full-width dots stay inside the path.
    assert.deepEqual(resolveReturnPath('/usage?period=7d#top'), { ok: true, path: '/usage?period=7d#top' });
    assert.deepEqual(resolveReturnPath('/%2F%2Fevil.example'), { ok: true, path: '/%2F%2Fevil.example' });
    assert.deepEqual(resolveReturnPath('/\uff0e\uff0e/keys'), { ok: true, path: '/%EF%BC%8E%EF%BC%8E/keys' });
    assert.deepEqual(resolveReturnPath(undefined), { ok: true, path: '/apps/chat' });
  });

  test('GET /login with a refused next answers 400 with the security headers, and its form returns to /keys', async () => {
    for (const value of BYPASSES) {
      const page = await gw.text.inject({ url: `/login?next=${encodeURIComponent(value)}` });
      assert.equal(page.statusCode, 400, JSON.stringify(value));
      assert.match(page.payload, /name="next" value="\/keys"/);
      assert.equal(page.headers['x-frame-options'], 'DENY');
      assert.ok(page.headers['content-security-policy']);
    }
  });

  test('with a session, a refused next is never followed (400, no Location); a good one is', async () => {
    const { cookie } = await webLogin(gw.text, 'alice');
    for (const value of BYPASSES) {
      const res = await gw.text.inject({ url: `/login?next=${encodeURIComponent(value)}`, headers: { cookie } });
      assert.equal(res.statusCode, 400, JSON.stringify(value));
      assert.equal(res.headers.location, undefined);
      assert.match(res.payload, /href="\/keys"/);
    }
    const good = await gw.text.inject({ url: '/login?next=%2Fusage%3Fperiod%3D7d', headers: { cookie } });
    assert.equal(good.statusCode, 302);
    assert.equal(good.headers.location, '/usage?period=7d');
    for (const value of SAFE_ODDITIES) {
      const res = await gw.text.inject({ url: `/login?next=${encodeURIComponent(value)}`, headers: { cookie } });
      assert.equal(res.statusCode, 302, JSON.stringify(value));
      assert.equal(leavesSite(String(res.headers.location)), false, JSON.stringify(value));
    }
  });

  test('the login form posted with a refused next lands on /keys', async () => {
    for (const value of BYPASSES) {
      const page = await gw.text.inject({ url: '/login' });
      const token = /name="_csrf" value="([^"]+)"/.exec(page.payload)![1]!;
      const cookie = String(page.headers['set-cookie']).split(';')[0]!;
      const res = await gw.text.inject({
        method: 'POST',
        url: '/login',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ _csrf: token, username: 'alice', password: 'password-123', next: value }).toString(),
      });
      assert.equal(res.statusCode, 303, JSON.stringify(value));
      assert.equal(res.headers.location, '/keys', JSON.stringify(value));
    }
  });

  test('a repeated next is answered 400, not followed', async () => {
    const res = await gw.text.inject({ url: '/login?next=/usage&next=//evil.example' });
    assert.equal(res.statusCode, 400);
    assert.equal(res.headers.location, undefined);
    assert.match(res.payload, /“next” more than once/);
  });
});
