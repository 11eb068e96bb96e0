// gwctl's side of device sign-in against a listening gateway: the device flow (polling at the
// gateway's pace, slow_down obeyed), the 0600 file store, and refreshes under the lock: several
// processes asking at once refresh once, so the rotating refresh token is never used twice.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { deviceLogin } from '../../core/sign-in/device-login.ts';
import { FileCredentialStore } from '../../core/sign-in/file-credential-store.ts';
import { freshAccessToken } from '../../core/sign-in/fresh-access-token.ts';
import { normalizeUserCode } from '../../server/sign-in/sign-in-secrets.ts';
import { createTestGateway, type TestGateway } from '../helpers/test-app.ts';

describe('gwctl sign-in against a gateway', () => {
  let gw: TestGateway;
  let base: string;
  let dir: string;
  let clock = Date.now();
  let userId: string;

  before(async () => {
    gw = await createTestGateway({ now: () => clock });
    await gw.text.listen({ host: '127.0.0.1', port: 0 });
    const address = gw.text.server.address() as { port: number };
    base = `http://127.0.0.1:${address.port}`;
    gw.deps.settings.publicUrl = base;
    userId = (await gw.store.users.create('lee', 'password-123')).id;
    dir = mkdtempSync(join(tmpdir(), 'gwctl-sign-in-'));
  });
  after(async () => {
    await gw.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('signs in through the device flow, keeps the sign-in in a 0600 file, and refreshes once for concurrent askers', async () => {
    let polls = 0;
    const record = await deviceLogin(base, {
      show: async (authorization) => {
        assert.equal(authorization.verification_uri, `${base}/device`);
        await gw.store.deviceAuthorizations.decide(normalizeUserCode(authorization.user_code)!, userId, 'approved');
      },
      // The gateway's clock moves with the client's waits; no real time passes.
      sleep: async (ms) => {
        polls += 1;
        clock += ms;
      },
      now: () => clock,
    });
    assert.equal(polls, 1, 'approved before the first poll: tokens at once');
    assert.match(record.accessToken, /^gwa-/);
    const store = new FileCredentialStore(join(dir, 'state', 'sign-in.json'));
    await store.write(record);
    assert.equal(statSync(join(dir, 'state', 'sign-in.json')).mode & 0o777, 0o600);
    assert.deepEqual(await store.read(`${base}/`), record, 'a trailing slash names the same gateway');

    // Fresh enough: no refresh.
    const same = await freshAccessToken(base, { store, lockPath: join(dir, 'state', 'lock'), now: () => clock });
    assert.equal(same.accessToken, record.accessToken);

    // Less than five minutes left: three askers at once, one refresh.
    clock += 3600_000 - 60_000;
    const results = await Promise.all([1, 2, 3].map(() => freshAccessToken(base, { store, lockPath: join(dir, 'state', 'lock'), now: () => clock })));
    assert.equal(new Set(results.map((r) => r.accessToken)).size, 1, 'one refresh served everyone');
    assert.notEqual(results[0]!.accessToken, record.accessToken);
    const res = await gw.text.inject({ url: '/v1/models', headers: { authorization: `Bearer ${results[0]!.accessToken}` } });
    assert.equal(res.statusCode, 200, 'the sign-in is alive: no refresh token was used twice');
  });

  it('forgets a sign-in the gateway ended, and says to sign in again', async () => {
    const store = new FileCredentialStore(join(dir, 'state', 'sign-in.json'));
    const record = (await store.read(base))!;
    await gw.text.inject({ method: 'POST', url: '/oauth/revoke', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `token=${record.refreshToken}` });
    await store.write({ ...record, accessExpiresAt: clock });
    await assert.rejects(freshAccessToken(base, { store, lockPath: join(dir, 'state', 'lock'), now: () => clock }), /has ended.*Sign in again|gwctl login/s);
    assert.equal(await store.read(base), undefined);
  });
});
