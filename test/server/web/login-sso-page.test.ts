// /login with single sign-on configured: the "Sign in with …" button (keeping the return path),
// and with local passwords turned off: no password form, and a password sign-in refused. The
// sign-in address is a 302 to the provider with PKCE, state and nonce, and a pending-login cookie.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { OidcProviderClient } from '../../../server/oidc/oidc-provider-client.ts';
import { createTestGateway, type TestGateway } from '../../helpers/test-app.ts';

describe('login page with single sign-on', () => {
  let discovery: Server;
  let issuer: string;
  let gw: TestGateway;

  before(async () => {
    // Only the discovery document is read before the browser leaves for the provider.
    discovery = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ issuer, authorization_endpoint: `${issuer}/auth`, token_endpoint: `${issuer}/token`, jwks_uri: `${issuer}/jwks` }));
    });
    await new Promise<void>((resolve) => discovery.listen(0, '127.0.0.1', resolve));
    issuer = `http://127.0.0.1:${(discovery.address() as AddressInfo).port}`;
    gw = await createTestGateway({ settings: { localPasswords: false } });
    gw.deps.oidc = new OidcProviderClient({ issuer, clientId: 'gateway', groupsClaim: 'groups', adminGroups: [], viewerGroups: [], displayName: 'Example SSO' });
    // The web plugin registered its routes before oidc was set: rebuild the app with it.
    await gw.text.close();
    const { buildTextApp } = await import('../../../server/app.ts');
    gw.text = buildTextApp(gw.deps);
    await gw.text.ready();
    await gw.store.users.create('local', 'password-123');
  });
  after(async () => {
    await gw.close();
    await new Promise<void>((resolve) => discovery.close(() => resolve()));
  });

  it('offers the provider and no password form when local passwords are off', async () => {
    const page = await gw.text.inject({ url: '/login?next=/usage' });
    assert.equal(page.statusCode, 200);
    assert.match(page.payload, /id="sign-in-oidc" href="\/login\/oidc\?next=%2Fusage">Sign in with Example SSO/);
    assert.doesNotMatch(page.payload, /name="password"/);
    const cookie = String(page.headers['set-cookie']).split(';')[0]!;
    const token = /gw_login_csrf=([^;]+)/.exec(String(page.headers['set-cookie']))![1]!;
    const posted = await gw.text.inject({
      method: 'POST',
      url: '/login',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ _csrf: token, username: 'local', password: 'password-123', next: '/keys' }).toString(),
    });
    assert.equal(posted.statusCode, 403);
    assert.match(posted.payload, /turned off/);
    assert.doesNotMatch(String(posted.headers['set-cookie'] ?? ''), /gw_session=/);
  });

  it('sends the browser to the provider with PKCE, state and nonce, and keeps them in a short-lived cookie', async () => {
    const res = await gw.text.inject({ url: '/login/oidc?next=//evil.example/x' });
    assert.equal(res.statusCode, 302);
    const location = new URL(String(res.headers.location));
    assert.equal(location.origin + location.pathname, `${issuer}/auth`);
    for (const name of ['state', 'nonce', 'code_challenge']) assert.ok((location.searchParams.get(name) ?? '').length >= 32, name);
    assert.equal(location.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(location.searchParams.get('redirect_uri'), 'http://gw.test/login/oidc/callback');
    const cookie = String(res.headers['set-cookie']);
    assert.match(cookie, /gw_oidc=[^;]+; Max-Age=600; Path=\/login\/oidc; HttpOnly; SameSite=Lax/);
    const pending = JSON.parse(Buffer.from(/gw_oidc=([^;]+)/.exec(cookie)![1]!, 'base64url').toString('utf8'));
    assert.equal(pending.next, '/keys', 'a return address off this site is dropped');
    const noCookie = await gw.text.inject({ url: `/login/oidc/callback?code=x&state=${location.searchParams.get('state')}` });
    assert.equal(noCookie.statusCode, 400);
    assert.match(noCookie.payload, /not started in this browser/);
  });
});
