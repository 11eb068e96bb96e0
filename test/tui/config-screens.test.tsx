// Client config and Settings: what to enter in each client (the key only as <API_KEY>), the pinned
// entries in settings and shell startup files, clean and restore behind confirmations; the settings
// with their sources, edited into the settings file after a confirmation, keys refused.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { flat, KEY, renderApp, TEST_KEY, machinesForThisFile } from './tui-harness.tsx';

const setup = machinesForThisFile();

test('client config: entries per client, pinned entries masked; c cleans after confirming, R restores', async () => {
  const m = setup();
  const settings = join(m.sandbox.home, '.claude', 'settings.json');
  mkdirSync(join(m.sandbox.home, '.claude'), { recursive: true });
  const original = `${JSON.stringify({ env: { ANTHROPIC_BASE_URL: 'http://gw.test:8080/v1', ANTHROPIC_AUTH_TOKEN: TEST_KEY }, theme: 'dark' }, null, 2)}\n`;
  writeFileSync(settings, original);
  writeFileSync(join(m.sandbox.home, '.bashrc'), `alias ll='ls -l'\nexport ANTHROPIC_AUTH_TOKEN=${TEST_KEY}\n`);
  const app = renderApp(m.deps, { size: { columns: 100, rows: 40 } });
  await app.press('6');
  const frame = flat(await app.waitFor('gwctl › Client config', 'Chat-completions client', 'Pinned in client settings'));
  assert.match(frame, /Base URL http:\/\/gw\.test:8080\/v1 \(must end with \/v1\)/);
  assert.match(frame, /Base URL http:\/\/gw\.test:8080 \(without \/v1 for Anthropic-SDK clients \(they append \/v1\/messages\); AI-SDK clients/);
  assert.match(frame, /API key <API_KEY> \(your own key; never share it\)/);
  assert.match(frame, /note: imageBaseUrl is not set/);
  assert.match(frame, /✖ ~\/\.claude\/settings\.json env\.ANTHROPIC_BASE_URL=http:\/\/gw\.test:8080\/v1/);
  assert.match(frame, /✖ ~\/\.claude\/settings\.json env\.ANTHROPIC_AUTH_TOKEN=sk-…Ab12/);
  assert.match(frame, /⚠ ~\/\.bashrc:2 line 2 ANTHROPIC_AUTH_TOKEN=sk-…Ab12/);
  assert.ok(app.frames.every((f) => !f.includes(TEST_KEY)), 'the key is never shown');

  await app.press('c');
  const confirm = flat(await app.waitFor('Back up and clean 2 files?', 'What will change:'));
  assert.match(confirm, /~\/\.claude\/settings\.json: back up \(timestamped copy\), then remove env\.ANTHROPIC_BASE_URL=http:\/\/gw\.test:8080\/v1, env\.ANTHROPIC_AUTH_TOKEN=sk-…Ab12/);
  await app.press('y');
  const cleaned = flat(await app.waitFor('backed up to', 'Undo with: gwctl start --restore'));
  assert.match(cleaned, /✔ none: no base address or credential is fixed/);
  assert.deepEqual(JSON.parse(readFileSync(settings, 'utf8')), { env: {}, theme: 'dark' }, 'only the pinned entries are removed');
  assert.ok(!readFileSync(join(m.sandbox.home, '.bashrc'), 'utf8').includes(TEST_KEY), 'the shell line is neutralised');

  await app.press('R');
  const restore = flat(await app.waitFor('Restore the files changed at', 'What will change:'));
  assert.match(restore, /~\/\.claude\/settings\.json: replaced by ~\/\.claude\/settings\.json\.[^ ]+ \(ANTHROPIC_BASE_URL, ANTHROPIC_AUTH_TOKEN back\)/);
  await app.press('y');
  await app.waitFor('~/.claude/settings.json ←', 'env.ANTHROPIC_BASE_URL=http://gw.test:8080/v1');
  assert.equal(readFileSync(settings, 'utf8'), original);
  await app.press('R');
  await app.waitFor('Nothing to restore: no clean-up by gwctl is on record.');
  app.unmount();
});

test('client config: n cancels, and with nothing pinned c says so', async () => {
  const m = setup();
  const app = renderApp(m.deps);
  await app.press('6');
  await app.waitFor('none: no base address or credential is fixed');
  await app.press('c');
  await app.waitFor('Nothing to clean: no removable pinned entry was found.');
  assert.ok(!existsSync(join(m.sandbox.home, '.local', 'state', 'gwctl', 'start-backups.json')));
  app.unmount();
});

test('settings: values with their sources; an edit is confirmed and saved to the file, owner-only', async () => {
  const m = setup();
  const app = renderApp(m.deps);
  await app.press('7');
  const frame = await app.waitFor('gwctl › Settings', '› baseUrl');
  assert.match(frame, /baseUrl +http:\/\/gw\.test:8080 +env GWCTL_BASE_URL/);
  assert.match(frame, /client\.profile +claude +default/);
  assert.match(frame, /client\.command +claude +profile claude/);
  await app.press('j');
  await app.waitFor('› imageBaseUrl', '{image_base_url}: the image API address');
  await app.press(KEY.enter);
  await app.waitFor('imageBaseUrl = ', 'enter save');
  await app.press('https://img.test/', KEY.enter);
  const confirm = flat(await app.waitFor('Save imageBaseUrl in ~/.config/gwctl/config.json?'));
  assert.match(confirm, /imageBaseUrl: \(not in the file\) → https:\/\/img\.test\//);
  await app.press('y');
  await app.waitFor('✔ imageBaseUrl saved', /imageBaseUrl +https:\/\/img\.test +file/, 'source: file ~/.config/gwctl/config.json');
  const file = join(m.sandbox.home, '.config', 'gwctl', 'config.json');
  assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { imageBaseUrl: 'https://img.test' });
  assert.equal((await import('node:fs')).statSync(file).mode & 0o777, 0o600);
  await app.press('u');
  await app.waitFor('Remove imageBaseUrl from ~/.config/gwctl/config.json?');
  await app.press('y');
  await app.waitFor('✔ imageBaseUrl removed from the settings file', /imageBaseUrl +\(not set\) +default/);
  app.unmount();
});

test('settings: a key-like value is refused, an invalid one explained, esc leaves the field; env overrides are noted', async () => {
  const m = setup();
  const app = renderApp(m.deps);
  await app.press('7');
  await app.waitFor('› baseUrl');
  await app.press('j', 'j', 'j', 'j', KEY.enter);
  await app.waitFor('client.command = ');
  await app.press(KEY.ctrlU, `claude --key ${TEST_KEY}`);
  await app.waitFor('claude --key sk-…Ab12', 'looks like an API key: it will not be stored');
  await app.press(KEY.enter, 'y');
  await app.waitFor('That value looks like an API key; gwctl does not store keys.', 'read -rs MSGAPI_AUTH_TOKEN');
  assert.ok(!existsSync(join(m.sandbox.home, '.config', 'gwctl', 'config.json')) || !readFileSync(join(m.sandbox.home, '.config', 'gwctl', 'config.json'), 'utf8').includes('sk-'));
  await app.press('k', 'k', KEY.enter);
  await app.waitFor('proxyUrl = ');
  await app.press(...Array(30).fill(KEY.backspace), 'localhost:9801', KEY.enter, 'y');
  await app.waitFor(/proxyUrl (must be an http\(s\) URL|is not a URL)/);
  await app.press('k', 'k', KEY.enter);
  await app.waitFor('baseUrl = ');
  await app.press(KEY.escape);
  await app.waitFor('› baseUrl');
  assert.ok(!app.frame().includes('baseUrl = '));
  await app.press(KEY.enter, KEY.enter, 'y');
  await app.waitFor('baseUrl saved (note: GWCTL_BASE_URL is set in this environment and overrides the file)');
  assert.ok(app.frames.every((f) => !f.includes(TEST_KEY)), 'the key typed by mistake is never shown in full');
  app.unmount();
});
