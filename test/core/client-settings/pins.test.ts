// Finding, cleaning and restoring pinned variables: only the named entries change, every other
// setting survives, backups never overwrite each other, permissions and symlinks are kept.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { backupFile } from '../../../core/client-settings/backup-file.ts';
import { BackupManifest } from '../../../core/client-settings/backup-manifest.ts';
import { cleanPinned } from '../../../core/client-settings/clean-pinned.ts';
import { findPinned } from '../../../core/client-settings/find-pinned.ts';
import { restoreBackups } from '../../../core/client-settings/restore-backups.ts';
import { shellStartupPins } from '../../../core/client-settings/shell-startup-pins.ts';

const root = mkdtempSync(join(tmpdir(), 'gwctl-pins-'));
after(() => rmSync(root, { recursive: true, force: true }));
const vars = { baseUrl: 'MSGAPI_BASE_URL', token: 'MSGAPI_AUTH_TOKEN', apiKey: 'MSGAPI_API_KEY' };
const KEY = 'sk-' + 'q'.repeat(44) + 'Ab12';
let n = 0;
const dir = () => {
  const d = join(root, `case-${++n}`);
  mkdirSync(d, { recursive: true });
  return d;
};

test('settings JSON: finds the env entries, masks credentials, removes only them', () => {
  const d = dir();
  const file = join(d, 'settings.json');
  const original = {
    permissions: { allow: ['Bash(ls)'] },
    env: { MSGAPI_BASE_URL: 'http://127.0.0.1:9801', MSGAPI_AUTH_TOKEN: KEY, OTHER: '1' },
    hooks: { PreToolUse: [{ matcher: 'x', hooks: [{ type: 'command', command: 'echo hi' }] }] },
    statusLine: { type: 'command', command: 'x' },
  };
  writeFileSync(file, JSON.stringify(original, null, 4) + '\n');
  chmodSync(file, 0o640);
  const scan = findPinned({ settingsFiles: [file, join(d, 'missing.json')], shellFiles: [], vars });
  assert.deepEqual(scan.entries.map((e) => [e.variable, e.role, e.shown]), [
    ['MSGAPI_BASE_URL', 'baseUrl', 'http://127.0.0.1:9801'],
    ['MSGAPI_AUTH_TOKEN', 'token', 'sk-…Ab12'],
  ]);
  assert.ok(!JSON.stringify(scan).includes(KEY), 'the raw key never reaches JSON');
  const manifest = new BackupManifest({ HOME: d, XDG_STATE_HOME: join(d, 'state') });
  const now = new Date('2026-03-04T05:06:07Z');
  const dry = cleanPinned({ entries: scan.entries, dryRun: true, now, manifest });
  assert.equal(dry.changed[0]!.backup, null);
  assert.equal(readFileSync(file, 'utf8'), JSON.stringify(original, null, 4) + '\n', 'dry run changes nothing');
  const report = cleanPinned({ entries: scan.entries, dryRun: false, now, manifest });
  assert.equal(report.changed[0]!.backup, `${file}.gwctl-backup-20260304T050607Z`);
  const cleaned = readFileSync(file, 'utf8');
  const { env, ...rest } = original;
  assert.deepEqual(JSON.parse(cleaned), { ...rest, env: { OTHER: '1' } });
  assert.match(cleaned, /^\{\n {4}"permissions"/, 'indentation kept');
  assert.ok(cleaned.endsWith('}\n'));
  assert.equal(statSync(file).mode & 0o777, 0o640, 'permissions kept');
  assert.equal(statSync(report.changed[0]!.backup!).mode & 0o777, 0o640);
  assert.deepEqual(JSON.parse(readFileSync(report.changed[0]!.backup!, 'utf8')), original);
  assert.ok(!readdirSync(d).some((f) => f.includes('gwctl-tmp')), 'no temp file left');

  const restored = restoreBackups({ manifest, dryRun: false, now: new Date('2026-03-04T06:00:00Z') });
  assert.equal(restored.files.length, 1);
  assert.equal(restored.files[0]!.keptCurrentAs, null);
  assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), original);
  assert.equal(restoreBackups({ manifest, dryRun: false, now }).operationId, null, 'nothing left to restore');
});

test('a file edited after the clean-up is itself backed up before a restore', () => {
  const d = dir();
  const file = join(d, 'settings.json');
  writeFileSync(file, '{"env":{"MSGAPI_BASE_URL":"http://x"},"model":"a"}');
  const manifest = new BackupManifest({ HOME: d, XDG_STATE_HOME: join(d, 'state') });
  const now = new Date('2026-03-04T05:06:07Z');
  cleanPinned({ entries: findPinned({ settingsFiles: [file], shellFiles: [], vars }).entries, dryRun: false, now, manifest });
  writeFileSync(file, '{"env":{},"model":"b"}');
  const report = restoreBackups({ manifest, dryRun: false, now });
  assert.equal(report.files[0]!.keptCurrentAs, `${file}.gwctl-backup-20260304T050607Z-2`, 'a second backup in the same second gets a suffix');
  assert.equal(readFileSync(report.files[0]!.keptCurrentAs!, 'utf8'), '{"env":{},"model":"b"}');
  assert.equal(readFileSync(file, 'utf8'), '{"env":{"MSGAPI_BASE_URL":"http://x"},"model":"a"}');
});

test('backups never overwrite an earlier one', () => {
  const d = dir();
  const file = join(d, 'f');
  writeFileSync(file, 'one');
  const now = new Date('2026-01-01T00:00:00Z');
  const first = backupFile(file, now);
  writeFileSync(file, 'two');
  const second = backupFile(file, now);
  assert.notEqual(first, second);
  assert.equal(readFileSync(first, 'utf8'), 'one');
  assert.equal(readFileSync(second, 'utf8'), 'two');
});

test('a symlinked settings file is written through; the link stays a link', () => {
  const d = dir();
  const target = join(d, 'dotfiles-settings.json');
  const link = join(d, 'settings.json');
  writeFileSync(target, '{"env":{"MSGAPI_API_KEY":"sk-vendorvendorvendor"}}\n');
  symlinkSync(target, link);
  const manifest = new BackupManifest({ HOME: d, XDG_STATE_HOME: join(d, 'state') });
  cleanPinned({ entries: findPinned({ settingsFiles: [link], shellFiles: [], vars }).entries, dryRun: false, now: new Date(), manifest });
  assert.ok(lstatSync(link).isSymbolicLink());
  assert.deepEqual(JSON.parse(readFileSync(target, 'utf8')), { env: {} });
});

test('invalid JSON is reported and never rewritten', () => {
  const d = dir();
  const file = join(d, 'settings.json');
  writeFileSync(file, '{ "env": { "MSGAPI_BASE_URL": "x", } ');
  const scan = findPinned({ settingsFiles: [file], shellFiles: [], vars });
  assert.equal(scan.entries.length, 0);
  assert.match(scan.problems[0]!.reason, /not valid JSON/);
});

test('shell startup files: plain assignments become no-ops, complex lines are only reported', () => {
  const d = dir();
  const rc = join(d, '.bashrc');
  const text = [
    '# my bashrc',
    'export PATH="$HOME/bin:$PATH"',
    'if [ -n "$WORK" ]; then',
    `  export MSGAPI_BASE_URL="http://127.0.0.1:9801"  # proxy`,
    'fi',
    `MSGAPI_AUTH_TOKEN='${KEY}'`,
    'export MSGAPI_API_KEY=$(pass show vendor)',
    "alias c='MSGAPI_BASE_URL=http://x claude'",
    '# export MSGAPI_BASE_URL=commented',
    '',
  ].join('\n');
  writeFileSync(rc, text);
  const fish = join(d, 'config.fish');
  writeFileSync(fish, 'set -gx MSGAPI_BASE_URL http://127.0.0.1:9801\nset -e MSGAPI_AUTH_TOKEN\n');
  const scan = findPinned({ settingsFiles: [], shellFiles: [rc, fish], vars });
  assert.deepEqual(
    scan.entries.map((e) => [e.file === rc ? 'rc' : 'fish', e.line, e.variable, e.removable, e.shown]),
    [
      ['rc', 4, 'MSGAPI_BASE_URL', true, 'http://127.0.0.1:9801'],
      ['rc', 6, 'MSGAPI_AUTH_TOKEN', true, 'sk-…Ab12'],
      ['rc', 7, 'MSGAPI_API_KEY', false, '…'],
      ['rc', 8, 'MSGAPI_BASE_URL', false, ''],
      ['fish', 1, 'MSGAPI_BASE_URL', true, 'http://127.0.0.1:9801'],
    ],
  );
  const manifest = new BackupManifest({ HOME: d, XDG_STATE_HOME: join(d, 'state') });
  const report = cleanPinned({ entries: scan.entries, dryRun: false, now: new Date('2026-01-01T00:00:00Z'), manifest });
  assert.equal(report.leftAlone.length, 2);
  const lines = readFileSync(rc, 'utf8').split('\n');
  assert.equal(lines[3], '  true  # gwctl start removed a pinned MSGAPI_BASE_URL (gwctl start --restore puts it back)');
  assert.match(lines[5]!, /^true  # gwctl start removed a pinned MSGAPI_AUTH_TOKEN/);
  assert.ok(!readFileSync(rc, 'utf8').includes(KEY), 'the key line is gone');
  assert.deepEqual([lines[0], lines[1], lines[2], lines[4], lines[6], lines[7], lines[8]], text.split('\n').filter((_, i) => ![3, 5].includes(i)).slice(0, 7));
  assert.equal(shellStartupPins.find(rc, readFileSync(rc, 'utf8'), vars).filter((e) => e.removable).length, 0, 'a second scan finds nothing to remove');
  restoreBackups({ manifest, dryRun: false, now: new Date() });
  assert.equal(readFileSync(rc, 'utf8'), text);
  assert.ok(existsSync(report.changed[0]!.backup!), 'backups stay after a restore');
});
