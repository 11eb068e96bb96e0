// One password rule everywhere: the first operator account from GWCTL_ADMIN_PASSWORD, the operator
// page and API, and `gwctl admin user add --password-stdin`. Length, a check against common
// passwords shipped with the code (no network), not the user name.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../../cli/run-cli.ts';
import { passwordProblem } from '../../server/auth/password-policy.ts';
import { bootstrapAdmin } from '../../server/bootstrap-admin.ts';
import { ConfigError } from '../../server/errors/config-error.ts';
import { Store } from '../../server/store/store.ts';
import { createTestGateway, type TestGateway } from '../helpers/test-app.ts';
import { webLogin } from '../helpers/web-login.ts';

const WEAK = ['a', 'short', 'password', 'Password1', 'password123', 'Password2024!', 'letmein!', 'qwertyuiop', '12345678', '1q2w3e4r', 'iloveyou', 'aaaaaaaaaaaa', 'abcdefghij'];

describe('password policy', () => {
  test('refuses short, common, run-of-keys passwords and the user name; accepts ordinary strong ones', () => {
    for (const weak of WEAK) assert.ok(passwordProblem(weak, 'someone'), weak);
    assert.match(passwordProblem('alice-smith', 'alice-smith')!, /user name/);
    assert.match(passwordProblem('x'.repeat(1025))!, /at most 1024/);
    for (const fine of ['correct horse battery', 'tui-e2e-admin-password', 'hunter22hunter', 'admin-password-123', 'V9q!mZ2#rT']) assert.equal(passwordProblem(fine, 'admin'), undefined, fine);
  });

  test('GWCTL_ADMIN_PASSWORD for the first operator account follows the same rule', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'gwctl-policy-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const store = await Store.open(`sqlite://${join(dir, 'gateway.db')}`);
    t.after(() => store.close());
    for (const weak of ['a', 'password123', 'adminadmin']) {
      await assert.rejects(bootstrapAdmin(store, { GWCTL_ADMIN_PASSWORD: weak }), (error: unknown) => error instanceof ConfigError && error.code === 'weak_admin_password', weak);
    }
    assert.equal(await store.users.count(), 0, 'no account was created with a weak password');
    assert.deepEqual(await bootstrapAdmin(store, { GWCTL_ADMIN_PASSWORD: 'a-much-better-secret' }), { created: true, generatedPassword: undefined });
  });

  describe('operator page and API', () => {
    let gw: TestGateway;
    before(async () => {
      gw = await createTestGateway();
      await gw.store.users.create('root', 'password-123', { isAdmin: true });
    });
    after(() => gw.close());

    test('the operator page refuses a common password', async () => {
      const { cookie, csrf } = await webLogin(gw.text, 'root');
      const res = await gw.text.inject({
        method: 'POST',
        url: '/admin/users',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ _csrf: csrf, username: 'erin', password: 'password123' }).toString(),
      });
      assert.equal(res.statusCode, 400);
      assert.match(res.payload, /among the most common/);
      assert.equal(await gw.store.users.findByName('erin'), undefined);
    });

    test('the operator API answers 400 weak_password', async () => {
      const { token } = await gw.store.operatorTokens.create('policy');
      const res = await gw.text.inject({ method: 'POST', url: '/admin/api/v1/users', headers: { authorization: `Bearer ${token}` }, payload: { username: 'frank', password: 'qwerty123' } });
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().error.code, 'weak_password');
      assert.equal(res.json().error.param, 'password');
    });
  });

  test('gwctl admin user add --password-stdin refuses a common password (exit 2)', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'gwctl-policy-cli-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    let err = '';
    const code = await runCli(['admin', 'user', 'add', 'gina', '--password-stdin', '--data-dir', dir], {
      stdout: () => undefined,
      stderr: (text) => void (err += text),
      env: { HOME: dir },
      readStdin: async () => 'iloveyou1\n',
    });
    assert.equal(code, 2);
    assert.match(err, /among the most common/);
  });
});
