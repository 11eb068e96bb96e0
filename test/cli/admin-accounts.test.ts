// gwctl admin user passwd / delete and the guards: the password is set (generated once or from stdin)
// and sessions end; delete asks on a terminal, needs --yes elsewhere, revokes the keys and keeps the
// usage; the last active operator can be neither disabled nor deleted; disabling twice audits once;
// secrets printed alone on stdout when stdout is not a terminal.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runCli, type CliIo } from '../../cli/run-cli.ts';
import { Store } from '../../server/store/store.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'gwctl-accounts-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));
const db = ['--data-dir', dataDir];

async function gwctl(args: string[], options: { stdin?: string; terminal?: boolean; answer?: string } = {}) {
  let out = '';
  let err = '';
  const io: CliIo = {
    stdout: (t) => void (out += t),
    stderr: (t) => void (err += t),
    env: { HOME: dataDir },
    readStdin: async () => options.stdin ?? '',
    stdoutIsTerminal: () => options.terminal ?? false,
    ...(options.answer !== undefined ? { ask: async () => options.answer! } : {}),
  };
  const code = await runCli([...args], io);
  return { code, out, err };
}

async function withStore<R>(work: (store: Store) => Promise<R>): Promise<R> {
  const store = await Store.open(`sqlite://${join(dataDir, 'gateway.db')}`);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

test('scripted: key create, token create and user add print only the secret on stdout; on a terminal the summary too', async () => {
  const admin = await gwctl(['admin', 'user', 'add', 'root', '--admin', ...db]);
  assert.equal(admin.code, 0, admin.err);
  assert.match(admin.out, /^[0-9A-Za-z]{20}\n$/, 'only the password');
  assert.match(admin.err, /Created user "root" \(operator\)/);
  const key = await gwctl(['admin', 'key', 'create', '--user', 'root', ...db]);
  assert.match(key.out, /^sk-[0-9A-Za-z]{48}\n$/);
  assert.match(key.err, /Created key key_/);
  const token = await gwctl(['admin', 'token', 'create', ...db]);
  assert.match(token.out, /^\S+\n$/);
  assert.match(token.err, /Created operator token/);
  const onTerminal = await gwctl(['admin', 'key', 'create', '--user', 'root', ...db], { terminal: true });
  assert.match(onTerminal.out, /^Created key key_\S+ for root .*\nsk-[0-9A-Za-z]{48}\n$/);
  const json = await gwctl(['admin', 'key', 'create', '--user', 'root', '--json', ...db]);
  assert.match(JSON.parse(json.out).key, /^sk-/);
});

test('user passwd: generated and shown once, or from stdin; sessions end; the new password logs in; audited', async () => {
  assert.equal((await gwctl(['admin', 'user', 'add', 'alice', ...db])).code, 0);
  const sessionCount = await withStore(async (store) => {
    const alice = (await store.users.findByName('alice'))!;
    await store.sessions.create(alice.id);
    return (await store.sessions.listForUser(alice.id)).length;
  });
  assert.equal(sessionCount, 1);
  const generated = await gwctl(['admin', 'user', 'passwd', 'alice', ...db]);
  assert.equal(generated.code, 0, generated.err);
  const password = generated.out.trim();
  assert.match(password, /^[0-9A-Za-z]{20}$/);
  await withStore(async (store) => {
    const alice = (await store.users.findByName('alice'))!;
    assert.ok(await store.users.authenticate('alice', password));
    assert.equal((await store.sessions.listForUser(alice.id)).length, 0, 'sessions ended');
  });
  const piped = await gwctl(['admin', 'user', 'passwd', 'alice', '--password-stdin', ...db], { stdin: 'a-new-password\n' });
  assert.equal(piped.code, 0, piped.err);
  assert.match(piped.out, /Changed the password of alice/);
  await withStore(async (store) => assert.ok(await store.users.authenticate('alice', 'a-new-password')));
  const short = await gwctl(['admin', 'user', 'passwd', 'alice', '--password-stdin', ...db], { stdin: 'short' });
  assert.equal(short.code, 2);
  assert.match(short.err, /at least 8 characters/);
  const missing = await gwctl(['admin', 'user', 'passwd', 'nobody', ...db]);
  assert.equal(missing.code, 1);
  const audit = JSON.parse((await gwctl(['admin', 'audit', '--action', 'user.password', '--json', ...db])).out);
  assert.equal(audit.length, 2);
  assert.ok(audit.every((e: { target: string; details: { by: string } }) => e.target === 'user:alice' && e.details.by === 'operator'));
});

test('the last active operator cannot be disabled or deleted; disabling a disabled user audits once', async () => {
  const disable = await gwctl(['admin', 'user', 'disable', 'root', ...db]);
  assert.equal(disable.code, 1);
  assert.match(disable.err, /last active operator/);
  const del = await gwctl(['admin', 'user', 'delete', 'root', '--yes', ...db]);
  assert.equal(del.code, 1);
  assert.match(del.err, /last active operator/);
  assert.equal((await gwctl(['admin', 'user', 'add', 'ops2', '--admin', ...db])).code, 0);
  assert.equal((await gwctl(['admin', 'user', 'disable', 'ops2', ...db])).code, 0);
  const again = await gwctl(['admin', 'user', 'disable', 'ops2', ...db]);
  assert.equal(again.code, 0);
  assert.match(again.out, /already disabled/);
  // ops2 is disabled: root is still the last active operator.
  assert.equal((await gwctl(['admin', 'user', 'disable', 'root', ...db])).code, 1);
  const audit = JSON.parse((await gwctl(['admin', 'audit', '--action', 'user.disable', '--json', ...db])).out);
  assert.equal(audit.filter((e: { target: string }) => e.target === 'user:ops2').length, 1);
});

test('user delete: refused without --yes off a terminal, asks on one, revokes the keys, keeps the usage, audited', async () => {
  assert.equal((await gwctl(['admin', 'user', 'add', 'bob', ...db])).code, 0);
  const key = (await gwctl(['admin', 'key', 'create', '--user', 'bob', ...db])).out.trim();
  const bobId = await withStore(async (store) => {
    const bob = (await store.users.findByName('bob'))!;
    await store.usage.apply([{ hour: '2026-11-01T10:00Z', userId: bob.id, keyId: 'key_x', model: 'demo', requests: 3, inputTokens: 10, outputTokens: 5, errors: 0, errorsByStatus: {} }], new Map());
    return bob.id;
  });
  const noYes = await gwctl(['admin', 'user', 'delete', 'bob', ...db]);
  assert.equal(noYes.code, 2);
  assert.match(noYes.err, /--yes/);
  const wrongAnswer = await gwctl(['admin', 'user', 'delete', 'bob', ...db], { answer: 'bo' });
  assert.equal(wrongAnswer.code, 1);
  const asked = await gwctl(['admin', 'user', 'delete', 'bob', ...db], { answer: 'bob' });
  assert.equal(asked.code, 0, asked.err);
  assert.match(asked.out, /Deleted bob: 1 key\(s\) revoked/);
  await withStore(async (store) => {
    assert.equal(await store.users.findByName('bob'), undefined);
    assert.equal(await store.keys.findByValue(key), undefined, 'the key is gone');
    const rows = await store.usage.rows({ userId: bobId });
    assert.equal(rows.reduce((n, r) => n + r.requests, 0), 3, 'usage kept under the id');
  });
  const audit = JSON.parse((await gwctl(['admin', 'audit', '--action', 'user.delete', '--json', ...db])).out);
  assert.equal(audit[0].target, 'user:bob');
  assert.equal(audit[0].details.keysRevoked, 1);
  const missing = await gwctl(['admin', 'user', 'delete', 'bob', '--yes', ...db]);
  assert.equal(missing.code, 1);
});

test('key create/update: a model list with nothing in common with the owner\'s is refused with the reason', async () => {
  assert.equal((await gwctl(['admin', 'user', 'add', 'nina', ...db])).code, 0);
  assert.equal((await gwctl(['admin', 'user', 'set', 'nina', '--models', 'demo-chat', ...db])).code, 0);
  const refused = await gwctl(['admin', 'key', 'create', '--user', 'nina', '--models', 'demo-image', ...db]);
  assert.equal(refused.code, 2);
  assert.match(refused.err, /none in common.*Choose among demo-chat/);
  const created = await gwctl(['admin', 'key', 'create', '--user', 'nina', '--models', 'demo-chat', '--json', ...db]);
  assert.equal(created.code, 0, created.err);
  const update = await gwctl(['admin', 'key', 'update', JSON.parse(created.out).id, '--models', 'demo-image', ...db]);
  assert.equal(update.code, 2);
});
