// Device sign-in (RFC 8628) served by the gateway: discovery, codes, the approval page, polling
// answers, tokens on API routes like a key of their user, rotation with reuse detection, revocation.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setUserDisabled } from '../../server/accounts/account-actions.ts';
import { DEVICE_STARTS_PER_WINDOW } from '../../server/sign-in/oauth-routes.ts';
import { WRONG_CODES_PER_WINDOW } from '../../server/web/pages/device-page.ts';
import { createTestGateway, type TestGateway } from '../helpers/test-app.ts';
import { webLogin, type WebLogin } from '../helpers/web-login.ts';

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
const form = { 'content-type': 'application/x-www-form-urlencoded' };

describe('device sign-in', () => {
  let gw: TestGateway;
  let clock = Date.parse('2026-11-27T09:00:00Z');
  let alice: WebLogin;

  before(async () => {
    gw = await createTestGateway({ now: () => clock });
    await gw.store.users.create('alice', 'password-123');
    alice = await webLogin(gw.text, 'alice');
  });
  after(() => gw.close());

  async function token(params: Record<string, string>) {
    const res = await gw.text.inject({ method: 'POST', url: '/oauth/token', headers: form, payload: new URLSearchParams(params).toString() });
    return { status: res.statusCode, body: res.json() as Record<string, string>, headers: res.headers };
  }

  async function startDevice(headers: Record<string, string> = {}, payload = '') {
    const res = await gw.text.inject({ method: 'POST', url: '/oauth/device_authorization', headers: { ...form, ...headers }, payload });
    assert.equal(res.statusCode, 200, res.payload);
    return res.json() as { device_code: string; user_code: string; verification_uri: string; verification_uri_complete: string; interval: number; expires_in: number };
  }

  async function decide(login: WebLogin, userCode: string, decision: 'approve' | 'deny') {
    return gw.text.inject({ method: 'POST', url: '/device', headers: { ...form, cookie: login.cookie }, payload: new URLSearchParams({ _csrf: login.csrf, user_code: userCode, decision }).toString() });
  }

  async function signIn(login = alice) {
    const device = await startDevice();
    assert.equal((await decide(login, device.user_code, 'approve')).statusCode, 200);
    clock += 6000;
    const answer = await token({ grant_type: DEVICE_GRANT, device_code: device.device_code });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body;
  }

  const messages = (accessToken: string) =>
    gw.text.inject({ method: 'POST', url: '/v1/messages', headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' }, payload: { model: 'demo-chat', max_tokens: 16, messages: [{ role: 'user', content: 'say pong' }] } });

  it('publishes its endpoints at /.well-known/oauth-authorization-server', async () => {
    const res = await gw.text.inject({ url: '/.well-known/oauth-authorization-server' });
    assert.equal(res.statusCode, 200);
    const meta = res.json();
    assert.equal(meta.issuer, 'http://gw.test');
    assert.equal(meta.device_authorization_endpoint, 'http://gw.test/oauth/device_authorization');
    assert.equal(meta.token_endpoint, 'http://gw.test/oauth/token');
    assert.equal(meta.revocation_endpoint, 'http://gw.test/oauth/revoke');
    assert.deepEqual(meta.grant_types_supported, [DEVICE_GRANT, 'refresh_token']);
  });

  it('answers a device authorization without client_id or body, with a code in the address', async () => {
    const device = await startDevice();
    assert.match(device.user_code, /^[B-Z]{4}-[B-Z]{4}$/);
    assert.equal(device.verification_uri, 'http://gw.test/device');
    assert.equal(device.verification_uri_complete, `http://gw.test/device?user_code=${device.user_code}`);
    assert.equal(device.interval, 5);
    assert.equal(device.expires_in, 600);
    assert.match(device.device_code, /^gwd-/);
  });

  it('shows the approval page to the signed-in person only, naming the client that asks', async () => {
    const device = await startDevice({ 'user-agent': 'claude-cli/2.1.197 (external, cli)' });
    const anonymous = await gw.text.inject({ url: `/device?user_code=${device.user_code}` });
    assert.equal(anonymous.statusCode, 302);
    assert.match(String(anonymous.headers.location), /^\/login\?next=/);
    const page = await gw.text.inject({ url: `/device?user_code=${device.user_code.toLowerCase()}`, headers: { cookie: alice.cookie } });
    assert.equal(page.statusCode, 200);
    assert.match(page.payload, /claude-cli\/2\.1\.197/);
    assert.match(page.payload, /id="device-approve"/);
    const blank = await gw.text.inject({ url: '/device', headers: { cookie: alice.cookie } });
    assert.match(blank.payload, /name="user_code"/);
    const unknown = await gw.text.inject({ url: '/device?user_code=BBBB-BBBB', headers: { cookie: alice.cookie } });
    assert.equal(unknown.statusCode, 404);
  });

  it('answers pending, slow_down, then tokens once; the device code is single-use', async () => {
    const device = await startDevice({}, 'client_id=gwctl');
    const first = await token({ grant_type: DEVICE_GRANT, device_code: device.device_code });
    assert.equal(first.status, 400);
    assert.equal(first.body.error, 'authorization_pending');
    const fast = await token({ grant_type: DEVICE_GRANT, device_code: device.device_code });
    assert.equal(fast.body.error, 'slow_down');
    clock += 11_000;
    assert.equal((await token({ grant_type: DEVICE_GRANT, device_code: device.device_code })).body.error, 'authorization_pending');
    assert.equal((await decide(alice, device.user_code, 'approve')).statusCode, 200);
    clock += 11_000;
    const granted = await token({ grant_type: DEVICE_GRANT, device_code: device.device_code });
    assert.equal(granted.status, 200);
    assert.equal(granted.headers['cache-control'], 'no-store');
    assert.equal(granted.body.token_type, 'Bearer');
    assert.equal(granted.body.expires_in, 3600);
    assert.match(granted.body.access_token!, /^gwa-/);
    assert.match(granted.body.refresh_token!, /^gwr-/);
    const again = await token({ grant_type: DEVICE_GRANT, device_code: device.device_code });
    assert.equal(again.body.error, 'invalid_grant');
    const audit = await gw.store.audit.list({ limit: 50 });
    assert.ok(audit.some((entry) => entry.action === 'signin.approve' && JSON.stringify(entry.details).includes('gwctl')));
  });

  it('answers access_denied after a denial and expired_token after ten minutes', async () => {
    const denied = await startDevice();
    assert.equal((await decide(alice, denied.user_code, 'deny')).statusCode, 200);
    assert.equal((await token({ grant_type: DEVICE_GRANT, device_code: denied.device_code })).body.error, 'access_denied');
    const late = await startDevice();
    clock += 601_000;
    assert.equal((await token({ grant_type: DEVICE_GRANT, device_code: late.device_code })).body.error, 'expired_token');
    assert.equal((await token({ grant_type: DEVICE_GRANT, device_code: 'gwd-nothing' })).body.error, 'invalid_grant');
    assert.equal((await token({ grant_type: 'password' })).body.error, 'unsupported_grant_type');
  });

  it('an access token works on the API as a key of its user, and expires after an hour', async () => {
    const tokens = await signIn();
    const res = await messages(tokens.access_token!);
    assert.equal(res.statusCode, 200, res.payload);
    const models = await gw.text.inject({ url: '/v1/models', headers: { 'x-api-key': tokens.access_token! } });
    assert.equal(models.statusCode, 200);
    clock += 3601_000;
    const expired = await messages(tokens.access_token!);
    assert.equal(expired.statusCode, 401);
    assert.match(expired.payload, /access token expired/);
  });

  it('refresh rotates without client_id; a reused refresh token ends the whole sign-in', async () => {
    const tokens = await signIn();
    const renewed = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token! });
    assert.equal(renewed.status, 200);
    assert.notEqual(renewed.body.refresh_token, tokens.refresh_token);
    assert.equal((await messages(renewed.body.access_token!)).statusCode, 200);
    const reused = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token! });
    assert.equal(reused.status, 400);
    assert.equal(reused.body.error, 'invalid_grant');
    assert.match(reused.body.error_description!, /already used/);
    assert.equal((await messages(renewed.body.access_token!)).statusCode, 401, 'the family is revoked at once');
    const audit = await gw.store.audit.list({ action: 'signin.revoke' });
    assert.ok(audit.some((e) => e.target === 'user:alice' && (e.details as { reason?: string }).reason === 'refresh token reused'));
    assert.doesNotMatch(JSON.stringify(audit), /gwr-|gwa-/, 'no token in the audit log');
    assert.equal((await token({ grant_type: 'refresh_token', refresh_token: renewed.body.refresh_token! })).body.error, 'invalid_grant');
  });

  it('revocation of the refresh token ends the sign-in; an unknown token is no error', async () => {
    const tokens = await signIn();
    assert.equal((await messages(tokens.access_token!)).statusCode, 200);
    const res = await gw.text.inject({ method: 'POST', url: '/oauth/revoke', headers: form, payload: `token=${tokens.refresh_token}&token_type_hint=refresh_token` });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), {});
    assert.equal((await messages(tokens.access_token!)).statusCode, 401);
    assert.equal((await gw.text.inject({ method: 'POST', url: '/oauth/revoke', headers: form, payload: 'token=gwr-unknown' })).statusCode, 200);
  });

  it('refuses the tokens of a disabled user at once, and their refresh', async () => {
    const bob = await gw.store.users.create('bob', 'password-123');
    const bobLogin = await webLogin(gw.text, 'bob');
    const tokens = await signIn(bobLogin);
    assert.equal((await messages(tokens.access_token!)).statusCode, 200);
    const user = (await gw.store.users.findById(bob.id))!;
    await setUserDisabled(gw.store, user, true, { actor: 'cli:test', address: 'local' }, (event) => gw.deps.authenticator.revoke(event));
    const refused = await messages(tokens.access_token!);
    assert.equal(refused.statusCode, 401);
    assert.match(refused.payload, /sign-in was ended/);
    assert.equal((await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token! })).body.error, 'invalid_grant');
    await setUserDisabled(gw.store, { ...user, disabled: true }, false, { actor: 'cli:test', address: 'local' }, () => undefined);
    assert.equal((await messages(tokens.access_token!)).statusCode, 401, 'enabling the account again does not bring the sign-in back');
  });

  it('signing out everywhere else on /account ends device sign-ins', async () => {
    await gw.store.users.create('carol', 'password-123');
    const carol = await webLogin(gw.text, 'carol');
    const tokens = await signIn(carol);
    const account = await gw.text.inject({ url: '/account', headers: { cookie: carol.cookie } });
    assert.match(account.payload, /device sign-in/);
    const res = await gw.text.inject({ method: 'POST', url: '/account/sessions/others', headers: { ...form, cookie: carol.cookie }, payload: `_csrf=${carol.csrf}` });
    assert.equal(res.statusCode, 303);
    assert.equal((await messages(tokens.access_token!)).statusCode, 401);
    assert.equal((await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token! })).body.error, 'invalid_grant');
  });

  it('an operator ends a person’s device sign-ins through the operator API; their keys stay', async () => {
    const tokens = await signIn();
    assert.equal((await messages(tokens.access_token!)).statusCode, 200);
    const { token: operatorToken } = await gw.store.operatorTokens.create('ops');
    const res = await gw.text.inject({ method: 'DELETE', url: '/admin/api/v1/users/alice/sign-ins', headers: { authorization: `Bearer ${operatorToken}` } });
    assert.equal(res.statusCode, 200, res.payload);
    assert.ok(res.json().ended >= 1);
    assert.equal((await messages(tokens.access_token!)).statusCode, 401);
    assert.equal((await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token! })).body.error, 'invalid_grant');
    const audit = await gw.store.audit.list({ action: 'signin.revoke' });
    assert.ok(audit.some((e) => e.target === 'user:alice' && e.actor.startsWith('token:')));
  });

  it('reads form bodies only as forms and refuses repeated parameters', async () => {
    const res = await gw.text.inject({ method: 'POST', url: '/oauth/token', headers: form, payload: 'grant_type=refresh_token&grant_type=refresh_token' });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error, 'invalid_request');
    const json = await gw.text.inject({ method: 'POST', url: '/oauth/token', headers: { 'content-type': 'application/json' }, payload: { grant_type: 'refresh_token', refresh_token: 'gwr-x' } });
    assert.equal(json.json().error, 'invalid_grant');
  });
});

describe('device sign-in throttling', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await createTestGateway();
    await gw.store.users.create('guesser', 'password-123');
  });
  after(() => gw.close());

  it('bounds the sign-ins one address starts, and the wrong codes one person enters', async () => {
    for (let i = 0; i < DEVICE_STARTS_PER_WINDOW; i++) {
      assert.equal((await gw.text.inject({ method: 'POST', url: '/oauth/device_authorization', headers: form, payload: '' })).statusCode, 200);
    }
    const refused = await gw.text.inject({ method: 'POST', url: '/oauth/device_authorization', headers: form, payload: '' });
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.json().error, 'slow_down');
    assert.ok(Number(refused.headers['retry-after']) > 0);

    const login = await webLogin(gw.text, 'guesser');
    for (let i = 0; i < WRONG_CODES_PER_WINDOW; i++) {
      assert.equal((await gw.text.inject({ url: '/device?user_code=BBBB-BBBB', headers: { cookie: login.cookie } })).statusCode, 404);
    }
    const blocked = await gw.text.inject({ url: '/device?user_code=BBBB-BBBC', headers: { cookie: login.cookie } });
    assert.equal(blocked.statusCode, 429);
    assert.match(blocked.payload, /Too many wrong codes/);
  });
});
