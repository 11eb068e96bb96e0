// Roles: operators change anything, viewers read the operator pages and the operator API (with
// their own sign-in's access token) and change nothing, members neither; changed on /admin, in the
// operator API and the CLI, every change audited, the last operator kept.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestGateway, type TestGateway } from '../helpers/test-app.ts';
import { webLogin, type WebLogin } from '../helpers/web-login.ts';

const form = { 'content-type': 'application/x-www-form-urlencoded' };
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

describe('roles', () => {
  let gw: TestGateway;
  let clock = Date.parse('2026-11-27T09:00:00Z');
  let root: WebLogin;
  let viewer: WebLogin;

  before(async () => {
    gw = await createTestGateway({ now: () => clock });
    await gw.store.users.create('root', 'password-123', { role: 'operator' });
    await gw.store.users.create('vera', 'password-123', { role: 'viewer' });
    await gw.store.users.create('mel', 'password-123');
    root = await webLogin(gw.text, 'root');
    viewer = await webLogin(gw.text, 'vera');
  });
  after(() => gw.close());

  /** The person's access token through the device flow, approved in their web session. */
  async function accessToken(login: WebLogin): Promise<string> {
    const device = (await gw.text.inject({ method: 'POST', url: '/oauth/device_authorization', headers: form, payload: '' })).json();
    await gw.text.inject({ method: 'POST', url: '/device', headers: { ...form, cookie: login.cookie }, payload: new URLSearchParams({ _csrf: login.csrf, user_code: device.user_code, decision: 'approve' }).toString() });
    clock += 6000;
    const res = await gw.text.inject({ method: 'POST', url: '/oauth/token', headers: form, payload: new URLSearchParams({ grant_type: DEVICE_GRANT, device_code: device.device_code }).toString() });
    return res.json().access_token;
  }

  it('a viewer reads /admin and its pages but changes nothing', async () => {
    const page = await gw.text.inject({ url: '/admin', headers: { cookie: viewer.cookie } });
    assert.equal(page.statusCode, 200);
    assert.match(page.payload, /href="\/admin"/, 'the operator pages are in the viewer’s navigation');
    assert.doesNotMatch(page.payload, /class="inline role-form"/, 'no role forms for a viewer');
    assert.match(page.payload, /id="viewer-note"/);
    assert.doesNotMatch(page.payload, /Create a user|Disable…/, 'no forms that would only be refused');
    const create = await gw.text.inject({ method: 'POST', url: '/admin/users', headers: { ...form, cookie: viewer.cookie }, payload: new URLSearchParams({ _csrf: viewer.csrf, username: 'x1', password: 'password-123' }).toString() });
    assert.equal(create.statusCode, 403);
    assert.match(create.payload, /Viewers can read/);
    assert.equal(await gw.store.users.findByName('x1'), undefined);
    const mel = await webLogin(gw.text, 'mel');
    assert.equal((await gw.text.inject({ url: '/admin', headers: { cookie: mel.cookie } })).statusCode, 403);
  });

  it('an operator changes a role on /admin; it is audited; nobody changes their own', async () => {
    const page = await gw.text.inject({ url: '/admin', headers: { cookie: root.cookie } });
    assert.match(page.payload, /aria-label="Role of mel"/);
    const mel = (await gw.store.users.findByName('mel'))!;
    const res = await gw.text.inject({ method: 'POST', url: `/admin/users/${mel.id}/role`, headers: { ...form, cookie: root.cookie }, payload: new URLSearchParams({ _csrf: root.csrf, role: 'viewer' }).toString() });
    assert.equal(res.statusCode, 303);
    assert.equal((await gw.store.users.findByName('mel'))!.role, 'viewer');
    const audit = await gw.store.audit.list({ action: 'user.role' });
    assert.ok(audit.some((entry) => entry.target === 'user:mel' && entry.actor === 'user:root' && JSON.stringify(entry.details) === JSON.stringify({ from: 'member', to: 'viewer' })));
    const rootUser = (await gw.store.users.findByName('root'))!;
    const self = await gw.text.inject({ method: 'POST', url: `/admin/users/${rootUser.id}/role`, headers: { ...form, cookie: root.cookie }, payload: new URLSearchParams({ _csrf: root.csrf, role: 'member' }).toString() });
    assert.match(String(self.headers.location), /role-self/);
    assert.equal((await gw.store.users.findByName('root'))!.role, 'operator');
  });

  it('the operator API: a viewer’s access token reads, a change is refused; an operator token changes roles', async () => {
    const token = await accessToken(viewer);
    const list = await gw.text.inject({ url: '/admin/api/v1/users', headers: { authorization: `Bearer ${token}` } });
    assert.equal(list.statusCode, 200, list.payload);
    assert.ok(list.json().users.some((u: { username: string; role: string }) => u.username === 'vera' && u.role === 'viewer'));
    const change = await gw.text.inject({ method: 'PUT', url: '/admin/api/v1/users/mel/role', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, payload: { role: 'operator' } });
    assert.equal(change.statusCode, 403);
    assert.match(change.payload, /viewer/);
    const { token: operatorToken } = await gw.store.operatorTokens.create('test');
    const made = await gw.text.inject({ method: 'PUT', url: '/admin/api/v1/users/mel/role', headers: { authorization: `Bearer ${operatorToken}`, 'content-type': 'application/json' }, payload: { role: 'member' } });
    assert.equal(made.statusCode, 200, made.payload);
    assert.equal(made.json().user.role, 'member');
    const bad = await gw.text.inject({ method: 'PUT', url: '/admin/api/v1/users/mel/role', headers: { authorization: `Bearer ${operatorToken}`, 'content-type': 'application/json' }, payload: { role: 'king' } });
    assert.equal(bad.statusCode, 400);
    const last = await gw.text.inject({ method: 'PUT', url: '/admin/api/v1/users/root/role', headers: { authorization: `Bearer ${operatorToken}`, 'content-type': 'application/json' }, payload: { role: 'member' } });
    assert.equal(last.statusCode, 409, 'the last active operator stays one');
  });

  it('a member’s access token gets nothing from the operator API', async () => {
    const mel = await webLogin(gw.text, 'mel');
    const token = await accessToken(mel);
    const res = await gw.text.inject({ url: '/admin/api/v1/users', headers: { authorization: `Bearer ${token}` } });
    assert.equal(res.statusCode, 403);
  });
});
