// The account page (change own password, own sessions, sign out elsewhere) and the /admin account
// actions (confirmation before disable and delete, password reset, last operator and self refused),
// plus /admin/keys (every user's keys, search, state filter, revoke with confirmation).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { bearer, createTestGateway, type TestGateway } from '../../helpers/test-app.ts';
import { webLogin, type WebLogin } from '../../helpers/web-login.ts';

const form = (login: WebLogin, fields: Record<string, string> = {}) => ({
  headers: { cookie: login.cookie, 'content-type': 'application/x-www-form-urlencoded' },
  payload: new URLSearchParams({ _csrf: login.csrf, ...fields }).toString(),
});

describe('account page and /admin account actions', () => {
  let gateway: TestGateway;
  let ops: WebLogin;
  let opsId: string;

  before(async () => {
    gateway = await createTestGateway();
    opsId = (await gateway.store.users.create('ops', 'password-123', { isAdmin: true })).id;
    ops = await webLogin(gateway.text, 'ops');
  });
  after(() => gateway?.close());

  test('account page: wrong current password refused, change signs out the other sessions, audited', async () => {
    await gateway.store.users.create('dana', 'password-123');
    const first = await webLogin(gateway.text, 'dana');
    const second = await webLogin(gateway.text, 'dana');
    const page = await gateway.text.inject({ url: '/account', headers: { cookie: first.cookie } });
    assert.equal(page.statusCode, 200);
    assert.match(page.payload, /this session/);
    assert.match(page.payload, /Sign out everywhere else \(1\)/);
    const wrong = await gateway.text.inject({ method: 'POST', url: '/account/password', ...form(first, { current: 'nope-nope', password: 'new-password-1', again: 'new-password-1', signOutOthers: '1' }) });
    assert.equal(wrong.statusCode, 400);
    assert.match(wrong.payload, /current password is not right/);
    const differ = await gateway.text.inject({ method: 'POST', url: '/account/password', ...form(first, { current: 'password-123', password: 'new-password-1', again: 'new-password-2' }) });
    assert.match(differ.payload, /differ/);
    const short = await gateway.text.inject({ method: 'POST', url: '/account/password', ...form(first, { current: 'password-123', password: 'short', again: 'short' }) });
    assert.match(short.payload, /at least 8 characters/);
    const changed = await gateway.text.inject({ method: 'POST', url: '/account/password', ...form(first, { current: 'password-123', password: 'new-password-1', again: 'new-password-1', signOutOthers: '1' }) });
    assert.equal(changed.statusCode, 303);
    assert.equal(changed.headers.location, '/account?done=password-others');
    assert.equal((await gateway.text.inject({ url: '/keys', headers: { cookie: second.cookie } })).statusCode, 302, 'the other session ended');
    assert.equal((await gateway.text.inject({ url: '/keys', headers: { cookie: first.cookie } })).statusCode, 200, 'this session stays');
    assert.ok(await gateway.store.users.authenticate('dana', 'new-password-1'));
    const third = await webLogin(gateway.text, 'dana', 'new-password-1');
    const signOut = await gateway.text.inject({ method: 'POST', url: '/account/sessions/others', ...form(first) });
    assert.equal(signOut.statusCode, 303);
    assert.equal((await gateway.text.inject({ url: '/keys', headers: { cookie: third.cookie } })).statusCode, 302);
    const audit = await gateway.store.audit.list({ actor: 'user:dana' });
    assert.deepEqual(audit.map((e) => e.action).sort(), ['session.revoke', 'user.password']);
    const csrfless = await gateway.text.inject({ method: 'POST', url: '/account/sessions/others', headers: { cookie: first.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
    assert.equal(csrfless.statusCode, 403);
  });

  test('/admin: disable and delete ask first; the POST without confirmation only shows the question', async () => {
    const { userId, key } = await gateway.userWithKey('erin');
    const users = await gateway.text.inject({ url: '/admin', headers: { cookie: ops.cookie } });
    assert.match(users.payload, new RegExp(`href="/admin/users/${userId}/disable"`));
    assert.match(users.payload, new RegExp(`href="/admin/users/${userId}/delete"`));
    const question = await gateway.text.inject({ url: `/admin/users/${userId}/disable`, headers: { cookie: ops.cookie } });
    assert.match(question.payload, /Disable user erin\?/);
    const unconfirmed = await gateway.text.inject({ method: 'POST', url: `/admin/users/${userId}/disable`, ...form(ops) });
    assert.equal(unconfirmed.statusCode, 200);
    assert.match(unconfirmed.payload, /Disable user erin\?/);
    assert.equal((await gateway.store.users.findById(userId))!.disabled, false, 'one click did nothing');
    const confirmed = await gateway.text.inject({ method: 'POST', url: `/admin/users/${userId}/disable`, ...form(ops, { confirmed: 'yes' }) });
    assert.equal(confirmed.statusCode, 303);
    assert.equal((await gateway.text.inject({ url: '/v1/models', headers: bearer(key) })).statusCode, 401);
    const again = await gateway.text.inject({ method: 'POST', url: `/admin/users/${userId}/disable`, ...form(ops, { confirmed: 'yes' }) });
    assert.match(String(again.headers.location), /done=unchanged/);
    assert.equal((await gateway.store.audit.list({ action: 'user.disable' })).filter((e) => e.target === 'user:erin').length, 1, 'audited once');
    const deleted = await gateway.text.inject({ method: 'POST', url: `/admin/users/${userId}/delete`, ...form(ops, { confirmed: 'yes' }) });
    assert.equal(deleted.statusCode, 303);
    const notice = await gateway.text.inject({ url: String(deleted.headers.location), headers: { cookie: ops.cookie } });
    assert.match(notice.payload, /Deleted erin: 1 key\(s\) revoked/);
    assert.equal(await gateway.store.users.findById(userId), undefined);
    assert.equal((await gateway.store.audit.list({ action: 'user.delete' }))[0]!.target, 'user:erin');
  });

  test('/admin: an operator cannot disable or delete themselves, nor the last active operator; password reset ends sessions', async () => {
    const self = await gateway.text.inject({ method: 'POST', url: `/admin/users/${opsId}/delete`, ...form(ops, { confirmed: 'yes' }) });
    assert.equal(self.statusCode, 409);
    assert.match(self.payload, /cannot delete your own account/);
    const other = await gateway.store.users.create('ops-b', 'password-123', { isAdmin: true });
    const otherLogin = await webLogin(gateway.text, 'ops-b');
    await gateway.store.users.setDisabled(opsId, true);
    const last = await gateway.text.inject({ method: 'POST', url: `/admin/users/${opsId}/delete`, ...form(otherLogin, { confirmed: 'yes' }) });
    // ops is disabled now, so ops-b deleting ops is allowed (ops is not an active operator).
    assert.equal(last.statusCode, 303, last.payload);
    const lastActive = await gateway.store.users.create('ops-c', 'password-123', { isAdmin: true });
    const cLogin = await webLogin(gateway.text, 'ops-c');
    await gateway.store.users.setDisabled(lastActive.id, false);
    const disableB = await gateway.text.inject({ method: 'POST', url: `/admin/users/${other.id}/disable`, ...form(cLogin, { confirmed: 'yes' }) });
    assert.equal(disableB.statusCode, 303, `two active operators: one may go ${disableB.headers.location}`);
    await gateway.store.users.setDisabled(other.id, false);
    await gateway.store.users.setDisabled(lastActive.id, true);
    // ops-b is now the last active operator: nobody (here the API) may remove it.
    const token = (await gateway.store.operatorTokens.create('t')).token;
    const api = await gateway.text.inject({ method: 'POST', url: '/admin/api/v1/users/ops-b/disable', headers: bearer(token) });
    assert.equal(api.statusCode, 409);
    assert.equal(api.json().error.code, 'last_operator');
    const { userId } = await gateway.userWithKey('fay');
    const fay = await webLogin(gateway.text, 'fay');
    const bAgain = await webLogin(gateway.text, 'ops-b'); // its earlier session ended when it was disabled
    const reset = await gateway.text.inject({ method: 'POST', url: `/admin/users/${userId}/password`, ...form(bAgain, { confirmed: 'yes', password: 'reset-password-9' }) });
    assert.equal(reset.statusCode, 303, reset.payload);
    assert.ok(await gateway.store.users.authenticate('fay', 'reset-password-9'));
    assert.equal((await gateway.text.inject({ url: '/keys', headers: { cookie: fay.cookie } })).statusCode, 302, 'her session ended');
  });

  test('/admin/keys: every user\'s keys, search by name/hint/owner, filter by state, revoke with confirmation', async () => {
    // Owner names with a hyphen: a search for them cannot match a base62 key id by chance.
    const g1 = await gateway.userWithKey('gus-owner');
    const h1 = await gateway.userWithKey('hal-owner');
    const expired = await gateway.store.keys.create(h1.userId, 'old-ci', { expiresAt: '2020-01-01T00:00:00.000Z', models: null, rateLimit: null, budgets: { tokensDay: null, tokensMonth: null, requestsDay: null, requestsMonth: null, costDay: null, costMonth: null } });
    const admin = await webLogin(gateway.text, 'ops-b');
    const all = await gateway.text.inject({ url: '/admin/keys', headers: { cookie: admin.cookie } });
    assert.equal(all.statusCode, 200);
    for (const id of [g1.keyId, h1.keyId, expired.id]) assert.match(all.payload, new RegExp(`data-key-id="${id}"`));
    const byOwner = await gateway.text.inject({ url: '/admin/keys?q=gus-owner', headers: { cookie: admin.cookie } });
    assert.match(byOwner.payload, new RegExp(g1.keyId));
    assert.doesNotMatch(byOwner.payload, new RegExp(h1.keyId));
    const byHint = await gateway.text.inject({ url: `/admin/keys?q=${encodeURIComponent(g1.key.slice(-4))}`, headers: { cookie: admin.cookie } });
    assert.match(byHint.payload, new RegExp(g1.keyId));
    const byState = await gateway.text.inject({ url: '/admin/keys?state=expired', headers: { cookie: admin.cookie } });
    assert.match(byState.payload, new RegExp(expired.id));
    assert.doesNotMatch(byState.payload, new RegExp(g1.keyId));
    const question = await gateway.text.inject({ url: `/admin/keys/${g1.keyId}/revoke`, headers: { cookie: admin.cookie } });
    assert.match(question.payload, /Revoke key\?/);
    assert.match(question.payload, /of <strong>gus-owner<\/strong>/);
    const revoked = await gateway.text.inject({ method: 'POST', url: `/admin/keys/${g1.keyId}/revoke`, ...form(admin) });
    assert.equal(revoked.statusCode, 303);
    assert.equal((await gateway.text.inject({ url: '/v1/models', headers: bearer(g1.key) })).statusCode, 401);
    assert.equal((await gateway.store.audit.list({ action: 'key.delete' }))[0]!.details!.user, 'gus-owner');
    const plain = await webLogin(gateway.text, 'hal-owner');
    assert.equal((await gateway.text.inject({ url: '/admin/keys', headers: { cookie: plain.cookie } })).statusCode, 403, 'operators only');
  });

  test('/admin/users/:id/usage: one user\'s charts and per-model totals; unknown users 404, wrong periods said', async () => {
    const { userId, key } = await gateway.userWithKey('uma');
    for (let i = 0; i < 2; i += 1) {
      const res = await gateway.text.inject({ method: 'POST', url: '/v1/chat/completions', headers: bearer(key), payload: { model: 'demo-chat', messages: [{ role: 'user', content: 'hi' }] } });
      assert.equal(res.statusCode, 200);
    }
    const admin = await webLogin(gateway.text, 'ops-b');
    const page = await gateway.text.inject({ url: `/admin/users/${userId}/usage?period=7d&group=key`, headers: { cookie: admin.cookie } });
    assert.equal(page.statusCode, 200, page.payload);
    assert.match(page.payload, /<h1>Usage of uma<\/h1>/);
    assert.match(page.payload, /id="chart-requests"/);
    assert.match(page.payload, /uma-key sk-…/, 'grouped by key');
    assert.match(page.payload, /<td><span class="clip" tabindex="0" title="demo-chat">demo-chat<\/span><\/td><td class="num">2<\/td>/);
    const users = await gateway.text.inject({ url: '/admin', headers: { cookie: admin.cookie } });
    assert.match(users.payload, new RegExp(`href="/admin/users/${userId}/usage"`));
    assert.equal((await gateway.text.inject({ url: '/admin/users/usr_nope/usage', headers: { cookie: admin.cookie } })).statusCode, 404);
    const wrong = await gateway.text.inject({ url: `/admin/users/${userId}/usage?period=year`, headers: { cookie: admin.cookie } });
    assert.match(wrong.payload, /role="alert"/);
    const plain = await webLogin(gateway.text, 'uma');
    assert.equal((await gateway.text.inject({ url: `/admin/users/${userId}/usage`, headers: { cookie: plain.cookie } })).statusCode, 403);
  });
});
