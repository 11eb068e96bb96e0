// gwctl login / token / logout where there is nothing to sign in to: each says what is missing and
// what to do, with the documented exit codes. (The sign-in itself: test/e2e/gwctl-login.test.ts.)
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { unusedPort } from '../helpers/fake-proxy.ts';
import { gwctl, makeSandbox } from './gwctl-harness.ts';

const sandbox = makeSandbox({ GWCTL_CREDENTIAL_STORE: 'file' });
after(() => sandbox.cleanup());

test('without a gateway address: a usage error naming the setting', async () => {
  const run = await gwctl(['login'], sandbox.env);
  assert.equal(run.code, 2);
  assert.match(run.err, /No gateway address is set/);
  assert.match(run.err, /gwctl config set baseUrl/);
});

test('a gateway that does not answer, token before login, logout with nothing to end', async () => {
  const address = `http://127.0.0.1:${await unusedPort()}`;
  const login = await gwctl(['login', '--base-url', address], sandbox.env);
  assert.equal(login.code, 1);
  assert.match(login.err, /Could not reach .*\/\.well-known\/oauth-authorization-server .*ECONNREFUSED/);
  const token = await gwctl(['token', '--base-url', address], sandbox.env);
  assert.equal(token.code, 1);
  assert.match(token.err, new RegExp(`Not signed in to ${address.replace(/[.]/g, '\\.')}`));
  assert.match(token.err, /gwctl login --base-url/);
  const logout = await gwctl(['logout', '--base-url', address, '--json'], sandbox.env);
  assert.equal(logout.code, 0);
  assert.deepEqual(JSON.parse(logout.out), { gateway: address, signedIn: false, revoked: false });
});
