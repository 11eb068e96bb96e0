// A running gateway and `gwctl admin` in another process: deleting a user revokes their keys at once
// (the next request answers 401), a password reset lets the new password log in, and the built CLI
// prints the key alone when its output is captured (KEY=$(gwctl admin key create …)).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { GatewayProcess } from '../helpers/gateway-process.ts';

let gateway: GatewayProcess;
before(async () => {
  gateway = await GatewayProcess.start({ adminPassword: 'admin-password-123' });
});
after(() => gateway?.cleanup());

const models = (key: string) => fetch(`${gateway.textUrl}/v1/models`, { headers: { authorization: `Bearer ${key}` } }).then(async (r) => (await r.arrayBuffer(), r.status));

test('captured output is the key alone; deleting its owner from another process cuts it at once', async () => {
  await gateway.addUser('sam');
  const created = await gateway.admin(['key', 'create', '--user', 'sam']);
  assert.equal(created.code, 0, created.stderr);
  assert.match(created.stdout, /^sk-[0-9A-Za-z]{48}\n$/, 'stdout is a pipe here: the key alone');
  const key = created.stdout.trim();
  assert.equal(await models(key), 200);
  const refused = await gateway.admin(['user', 'delete', 'sam']);
  assert.equal(refused.code, 2, 'no terminal and no --yes: nothing deleted');
  assert.equal(await models(key), 200);
  const deleted = await gateway.admin(['user', 'delete', 'sam', '--yes']);
  assert.equal(deleted.code, 0, deleted.stderr);
  assert.equal(await models(key), 401);
});

test('a password set with passwd --password-stdin logs in on the running gateway', async () => {
  await gateway.addUser('tia');
  const set = await gateway.admin(['user', 'passwd', 'tia', '--password-stdin'], { stdin: 'fresh-password-42\n' });
  assert.equal(set.code, 0, set.stderr);
  const page = await fetch(`${gateway.textUrl}/login`);
  const token = /name="_csrf" value="([^"]+)"/.exec(await page.text())![1]!;
  const cookie = String(page.headers.get('set-cookie')).split(';')[0]!;
  const login = await fetch(`${gateway.textUrl}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin: gateway.textUrl },
    body: new URLSearchParams({ _csrf: token, username: 'tia', password: 'fresh-password-42', next: '/keys' }),
  });
  assert.equal(login.status, 303);
});
