// gwctl admin: roles (user add/set --role, shown by user list, audited) and the model allowlists
// of identity-provider groups (group set/list/delete).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { gwctl as run } from './gwctl-harness.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'gwctl-cli-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));
const db = ['--data-dir', dataDir];
const gwctl = (args: string[], stdin = '') => run([...args, ...db], { HOME: dataDir }, stdin);

test('roles: added and changed from the CLI, listed, audited; the last operator stays one', async () => {
  assert.equal((await gwctl(['admin', 'user', 'add', 'boss', '--role', 'operator', '--password-stdin'], 'boss-password-123\n')).code, 0);
  const added = await gwctl(['admin', 'user', 'add', 'vic', '--role', 'viewer', '--password-stdin'], 'vic-password-123\n');
  assert.equal(added.code, 0, added.err);
  assert.match(added.out + added.err, /\(viewer\)/);
  const set = await gwctl(['admin', 'user', 'set', 'vic', '--role', 'member', '--json']);
  assert.equal(set.code, 0, set.err);
  assert.equal(JSON.parse(set.out).role, 'member');
  const list = await gwctl(['admin', 'user', 'list']);
  assert.match(list.out, /vic +\S+ +member/);
  assert.match(list.out, /boss +\S+ +operator/);
  const last = await gwctl(['admin', 'user', 'set', 'boss', '--role', 'viewer']);
  assert.equal(last.code, 1);
  assert.match(last.err, /last active operator/);
  assert.equal((await gwctl(['admin', 'user', 'set', 'vic', '--role', 'king'])).code, 2);
  const audit = await gwctl(['admin', 'audit', '--json']);
  assert.match(audit.out, /"user.role"/);
});

test('group allowlists: set, list, delete', async () => {
  const set = await gwctl(['admin', 'group', 'set', 'engineering', '--models', 'demo-chat, demo-embedding']);
  assert.equal(set.code, 0, set.err);
  assert.match(set.out, /Group engineering: models demo-chat, demo-embedding/);
  const list = await gwctl(['admin', 'group', 'list']);
  assert.match(list.out, /engineering +demo-chat, demo-embedding/);
  assert.equal((await gwctl(['admin', 'group', 'set', 'x', '--models', ' '])).code, 2, 'an empty list is refused');
  assert.equal((await gwctl(['admin', 'group', 'delete', 'engineering'])).code, 0);
  assert.equal((await gwctl(['admin', 'group', 'delete', 'engineering'])).code, 1);
  assert.match((await gwctl(['admin', 'group', 'list'])).out, /No group has a model allowlist/);
});

test('user sign-out ends a person’s device sign-ins', async () => {
  const { Store } = await import('../../server/store/store.ts');
  const store = await Store.open(`sqlite://${join(dataDir, 'gateway.db')}`);
  try {
    const vic = (await store.users.findByName('vic'))!;
    const now = new Date();
    await store.signInGrants.create(vic.id, 'gwctl', { accessToken: 'gwa-cli-test-access', accessExpiresAt: new Date(now.getTime() + 3600_000), refreshToken: 'gwr-cli-test-refresh', refreshExpiresAt: new Date(now.getTime() + 86_400_000) }, now);
  } finally {
    await store.close();
  }
  const run = await gwctl(['admin', 'user', 'sign-out', 'vic']);
  assert.equal(run.code, 0, run.err);
  assert.match(run.out, /Ended 1 device sign-in\(s\) of vic/);
  assert.match((await gwctl(['admin', 'user', 'sign-out', 'vic'])).out, /no device sign-in/);
  assert.equal((await gwctl(['admin', 'user', 'sign-out', 'nobody'])).code, 1);
});
