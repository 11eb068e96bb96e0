import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runCli } from '../../cli/run-cli.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'gwctl-cli-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

async function gwctl(args: string[], stdin = ''): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli([...args], {
    stdout: (t) => void (out += t),
    stderr: (t) => void (err += t),
    env: { HOME: dataDir },
    readStdin: async () => stdin,
  });
  return { code, out, err };
}

const db = ['--data-dir', dataDir];

test('user add / list, with a generated password shown once or one from stdin', async () => {
  const added = await gwctl(['admin', 'user', 'add', 'alice', ...db]);
  assert.equal(added.code, 0, added.err);
  // Not a terminal: the password alone on stdout, the summary on stderr.
  assert.match(added.out, /^[0-9A-Za-z]{20}\n$/);
  assert.match(added.err, /Password \(shown once, store it now\):/);
  const piped = await gwctl(['admin', 'user', 'add', 'bob', '--admin', '--password-stdin', ...db], 'hunter22hunter\n');
  assert.equal(piped.code, 0, piped.err);
  assert.doesNotMatch(piped.out, /Password/);
  const list = await gwctl(['admin', 'user', 'list', '--json', ...db]);
  const users = JSON.parse(list.out);
  assert.deepEqual(users.map((u: { username: string; isAdmin: boolean }) => [u.username, u.isAdmin]), [['alice', false], ['bob', true]]);
  const duplicate = await gwctl(['admin', 'user', 'add', 'alice', ...db]);
  assert.equal(duplicate.code, 1);
  assert.match(duplicate.err, /already exists/);
  const short = await gwctl(['admin', 'user', 'add', 'carol', '--password-stdin', ...db], 'short');
  assert.equal(short.code, 2);
});

test('key create prints the value once; list shows only masked hints; delete removes it', async () => {
  const created = await gwctl(['admin', 'key', 'create', '--user', 'alice', '--name', 'laptop', '--json', ...db]);
  assert.equal(created.code, 0, created.err);
  const key = JSON.parse(created.out);
  assert.deepEqual(Object.keys(key).sort(), ['createdAt', 'hint', 'id', 'key', 'limits', 'name']);
  assert.match(key.key, /^sk-[0-9A-Za-z]{48}$/);
  assert.equal(key.hint, `sk-…${key.key.slice(-4)}`);

  const other = JSON.parse((await gwctl(['admin', 'key', 'create', '--user', 'bob', '--json', ...db])).out);
  const listed = await gwctl(['admin', 'key', 'list', '--json', ...db]);
  assert.ok(!listed.out.includes(key.key) && !listed.out.includes(other.key), 'list never shows a full key');
  const aliceOnly = JSON.parse((await gwctl(['admin', 'key', 'list', '--user', 'alice', '--json', ...db])).out);
  assert.deepEqual(aliceOnly.map((k: { id: string }) => k.id), [key.id]);
  const table = await gwctl(['admin', 'key', 'list', ...db]);
  assert.match(table.out, /ID\s+USER\s+NAME\s+KEY/);
  assert.ok(table.out.includes(key.hint));

  assert.equal((await gwctl(['admin', 'key', 'delete', key.id, ...db])).code, 0);
  const again = await gwctl(['admin', 'key', 'delete', key.id, ...db]);
  assert.equal(again.code, 1);
  assert.match(again.err, /No key with id/);
  const missingUser = await gwctl(['admin', 'key', 'create', '--user', 'nobody', ...db]);
  assert.equal(missingUser.code, 1);
  assert.match(missingUser.err, /No user named "nobody"/);
});

test('key create with limits, key update changes only the limits named, wrong values exit 2', async () => {
  const created = await gwctl([
    'admin', 'key', 'create', '--user', 'alice', '--json', ...db,
    '--expires', '2030-01-31', '--models', 'demo-chat,demo-embedding', '--rate-limit', '30',
    '--budget-tokens-day', '1000', '--budget-tokens-month', '20000', '--budget-requests-day', '50', '--budget-requests-month', '900',
  ]);
  assert.equal(created.code, 0, created.err);
  const key = JSON.parse(created.out);
  assert.deepEqual(key.limits, {
    expiresAt: '2030-01-31T00:00:00.000Z',
    models: ['demo-chat', 'demo-embedding'],
    rateLimit: 30,
    budgets: { tokensDay: 1000, tokensMonth: 20000, requestsDay: 50, requestsMonth: 900, costDay: null, costMonth: null },
  });
  const updated = await gwctl(['admin', 'key', 'update', key.id, '--models', '', '--budget-tokens-day', '0', '--json', ...db]);
  assert.equal(updated.code, 0, updated.err);
  assert.deepEqual(JSON.parse(updated.out).limits, {
    expiresAt: '2030-01-31T00:00:00.000Z',
    models: null,
    rateLimit: 30,
    budgets: { tokensDay: null, tokensMonth: 20000, requestsDay: 50, requestsMonth: 900, costDay: null, costMonth: null },
  });
  const text = await gwctl(['admin', 'key', 'update', key.id, '--expires', '30d', ...db]);
  assert.equal(text.code, 0, text.err);
  assert.match(text.out, /expires 20\d\d-.*30\/min; 20000 tokens\/month; 50 requests\/day; 900 requests\/month/);
  assert.ok(!text.out.includes(key.key));
  const bad = await gwctl(['admin', 'key', 'update', key.id, '--budget-requests-day', 'lots', ...db]);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /Request budget per day must be a whole number/);
  const nothing = await gwctl(['admin', 'key', 'update', key.id, ...db]);
  assert.equal(nothing.code, 2);
  const listed = await gwctl(['admin', 'key', 'list', '--user', 'alice', ...db]);
  assert.match(listed.out, /LIMITS/);
  assert.match(listed.out, /20000 tokens\/month/);
});

test('user set: models and budgets for all of a user\'s keys; only the limits named change', async () => {
  const set = await gwctl(['admin', 'user', 'set', 'alice', '--models', 'demo-chat', '--budget-tokens-month', '500000', '--json', ...db]);
  assert.equal(set.code, 0, set.err);
  assert.deepEqual(JSON.parse(set.out).limits, { models: ['demo-chat'], budgets: { tokensDay: null, tokensMonth: 500000, requestsDay: null, requestsMonth: null, costDay: null, costMonth: null } });
  const again = await gwctl(['admin', 'user', 'set', 'alice', '--budget-requests-day', '100', ...db]);
  assert.equal(again.code, 0, again.err);
  assert.match(again.out, /alice \(all keys\): models demo-chat; 500000 tokens\/month; 100 requests\/day/);
  const list = await gwctl(['admin', 'user', 'list', ...db]);
  assert.match(list.out, /LIMITS/);
  assert.equal((await gwctl(['admin', 'user', 'set', 'alice', '--expires', '30d', ...db])).code, 2, 'a user has no expiry');
  assert.equal((await gwctl(['admin', 'user', 'set', 'nobody', '--models', 'x', ...db])).code, 1);
  assert.equal((await gwctl(['admin', 'user', 'set', 'alice', ...db])).code, 2);
});

test('token create prints an operator token once; list shows it masked; revoke removes it', async () => {
  const created = await gwctl(['admin', 'token', 'create', '--name', 'automation', '--json', ...db]);
  assert.equal(created.code, 0, created.err);
  const token = JSON.parse(created.out);
  assert.match(token.token, /^gwo-[0-9A-Za-z]{48}$/);
  assert.equal(token.hint, `gwo-…${token.token.slice(-4)}`);
  const listed = await gwctl(['admin', 'token', 'list', '--json', ...db]);
  assert.ok(!listed.out.includes(token.token), 'a list never shows a token');
  assert.deepEqual(JSON.parse(listed.out).map((t: { id: string; name: string }) => [t.id, t.name]), [[token.id, 'automation']]);
  const text = await gwctl(['admin', 'token', 'create', ...db]);
  assert.match(text.out, /^gwo-/m);
  assert.match(text.err, /only time the token is shown/);
  assert.equal((await gwctl(['admin', 'token', 'revoke', token.id, ...db])).code, 0);
  const again = await gwctl(['admin', 'token', 'revoke', token.id, ...db]);
  assert.equal(again.code, 1);
  assert.match(again.err, /No operator token/);
});

test('audit shows what the commands changed, by whom and from where, never a key or token value', async () => {
  const key = JSON.parse((await gwctl(['admin', 'key', 'create', '--user', 'alice', '--name', 'audited', '--json', ...db])).out);
  const token = JSON.parse((await gwctl(['admin', 'token', 'create', '--json', ...db])).out);
  assert.equal((await gwctl(['admin', 'key', 'update', key.id, '--rate-limit', '5', ...db])).code, 0);
  assert.equal((await gwctl(['admin', 'key', 'delete', key.id, ...db])).code, 0);
  const audit = await gwctl(['admin', 'audit', '--json', ...db]);
  assert.equal(audit.code, 0, audit.err);
  const entries = JSON.parse(audit.out) as Array<{ action: string; actor: string; address: string; target: string }>;
  const mine = entries.filter((e) => e.target.startsWith(`key:${key.id}`));
  assert.deepEqual(mine.map((e) => e.action).reverse(), ['key.create', 'key.update', 'key.delete']);
  assert.match(mine[0]!.actor, /^cli:.+@.+/);
  assert.equal(mine[0]!.address, 'local');
  assert.ok(entries.some((e) => e.action === 'user.create' && e.target === 'user:alice'));
  assert.ok(!audit.out.includes(key.key) && !audit.out.includes(token.token), 'no secret in the audit log');
  const table = await gwctl(['admin', 'audit', '--action', 'key.delete', ...db]);
  assert.match(table.out, /WHEN\s+WHO\s+FROM\s+ACTION/);
  assert.ok(table.out.includes(key.id));
  assert.doesNotMatch(table.out, /key\.create/);
});

test('usage reports an empty period without failing', async () => {
  const usage = await gwctl(['admin', 'usage', '--json', ...db]);
  assert.equal(usage.code, 0);
  assert.deepEqual(JSON.parse(usage.out).rows, []);
  assert.equal((await gwctl(['admin', 'usage', '--since', '-1', ...db])).code, 2);
});

test('usage errors exit 2 with a hint; --help works on every command', async () => {
  const unknown = await gwctl(['admin', 'frobnicate']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.err, /Unknown argument|Name an admin subcommand/);
  assert.equal((await gwctl([])).code, 2);
  const badPort = await gwctl(['serve', '--port', '70000', ...db]);
  assert.equal(badPort.code, 2);
  assert.match(badPort.err, /--port must be a whole number from 0 to 65535/);
  const badDb = await gwctl(['admin', 'user', 'list', '--database-url', 'mysql://x']);
  assert.equal(badDb.code, 2);
  assert.match(badDb.err, /Unsupported database URL/);
  for (const command of [['serve'], ['admin'], ['admin', 'user', 'add'], ['admin', 'key', 'create'], ['admin', 'key', 'list'], ['admin', 'key', 'delete'], ['admin', 'usage']]) {
    const help = await gwctl([...command, '--help']);
    assert.equal(help.code, 0, command.join(' '));
  }
});
