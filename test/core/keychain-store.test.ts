// The keychain store's conversation with libsecret's `secret-tool`, played by a stand-in script on
// PATH that keeps items in a folder and logs its arguments: the secret travels on standard input
// (never in a process's arguments), one item per gateway, and a keychain is used only when a D-Bus
// session and the tool are there.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { openCredentialStore } from '../../core/sign-in/credential-store.ts';
import { KeychainCredentialStore } from '../../core/sign-in/keychain-credential-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'gwctl-keychain-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const bin = join(dir, 'bin');
const items = join(dir, 'items');
mkdirSync(bin);
mkdirSync(items);
writeFileSync(
  join(bin, 'secret-tool'),
  `#!/bin/sh
echo "$@" >> '${dir}/argv.log'
cmd="$1"; shift
[ "$cmd" = store ] && { shift; shift; }
key=$(echo "$@" | tr -c 'A-Za-z0-9' '_')
case "$cmd" in
  search) exit 0 ;;
  store) cat > '${items}'/"$key" ;;
  lookup) [ -f '${items}'/"$key" ] && cat '${items}'/"$key" || exit 1 ;;
  clear) [ -f '${items}'/"$key" ] && rm '${items}'/"$key" || exit 1 ;;
esac
`,
);
chmodSync(join(bin, 'secret-tool'), 0o755);

const env = { PATH: `${bin}:/usr/bin:/bin`, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent', HOME: dir };
const record = { gateway: 'http://127.0.0.1:8080', tokenEndpoint: 'http://127.0.0.1:8080/oauth/token', refreshToken: 'gwr-secret-refresh', accessToken: 'gwa-secret-access', accessExpiresAt: 1 };

test('stores, reads and removes a sign-in through secret-tool, the secret on stdin only', async () => {
  const store = await KeychainCredentialStore.detect(env, 'linux');
  assert.ok(store, 'a keychain is found');
  await store.write(record);
  assert.deepEqual(await store.read('http://127.0.0.1:8080/'), record);
  assert.equal(await store.read('http://127.0.0.1:9090'), undefined);
  assert.equal(await store.remove('http://127.0.0.1:8080'), true);
  assert.equal(await store.read('http://127.0.0.1:8080'), undefined);
  assert.doesNotMatch(readFileSync(join(dir, 'argv.log'), 'utf8'), /gwr-|gwa-/, 'no token in any argument list');
});

test('without a D-Bus session, or with GWCTL_CREDENTIAL_STORE=file, the 0600 file is used', async () => {
  assert.equal(await KeychainCredentialStore.detect({ ...env, DBUS_SESSION_BUS_ADDRESS: '' }, 'linux'), undefined);
  const file = await openCredentialStore({ ...env, GWCTL_CREDENTIAL_STORE: 'file', XDG_STATE_HOME: join(dir, 'state') });
  assert.equal(file.where, join(dir, 'state', 'gwctl', 'sign-in.json'));
  const keychain = await openCredentialStore({ ...env, XDG_STATE_HOME: join(dir, 'state') });
  assert.equal(keychain.where, 'the keychain (secret-tool)');
  await assert.rejects(openCredentialStore({ ...env, GWCTL_CREDENTIAL_STORE: 'vault' }), /must be "file" or "keychain"/);
  await assert.rejects(openCredentialStore({ PATH: '/usr/bin:/bin', GWCTL_CREDENTIAL_STORE: 'keychain' }), /no keychain answers here/);
});

test('a keychain that refuses without reading the secret (a locked one) is a clear error, not a broken pipe that ends the process', async () => {
  const lockedBin = join(dir, 'locked-bin');
  mkdirSync(lockedBin);
  // Answers the probe, then refuses every store at once, never reading its standard input.
  writeFileSync(join(lockedBin, 'secret-tool'), `#!/bin/sh\n[ "$1" = search ] && exit 0\nexit 1\n`);
  chmodSync(join(lockedBin, 'secret-tool'), 0o755);
  const store = await KeychainCredentialStore.detect({ ...env, PATH: `${lockedBin}:/usr/bin:/bin` }, 'linux');
  assert.ok(store);
  // More than a pipe holds (64 KiB), so the write cannot finish before the tool has gone.
  const large = { ...record, accessToken: 'gwa-'.padEnd(256 * 1024, 'x') };
  for (let i = 0; i < 5; i += 1) await assert.rejects(store.write(large), /Could not store the sign-in in the keychain \(secret-tool\)\. Unlock the keychain/);
});
