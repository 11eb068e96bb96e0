import { test } from 'node:test';
import assert from 'node:assert/strict';
import { claudeCodeFingerprint, fingerprintStrip } from '../../../proxy/src/transforms/fingerprint-strip.ts';
import { longSessionBody } from '../helpers/long-session.ts';
import { runBuiltin } from '../helpers/run-builtin.ts';

const REAL = 'Please refactor the parser in src/parse.ts so that it streams its input.';

test('the fingerprint is 3 hex chars from the characters at 4, 7 and 20, with "0" for missing ones', () => {
  assert.match(claudeCodeFingerprint(REAL, '2.1.150'), /^[0-9a-f]{3}$/);
  // Only positions 4, 7 and 20 matter.
  assert.equal(claudeCodeFingerprint('abcdefghijklmnopqrstuvwxyz', '2.1.150'), claudeCodeFingerprint('XXXXeXXhXXXXXXXXXXXXuXXXX', '2.1.150'));
  assert.equal(claudeCodeFingerprint('abc', '2.1.150'), claudeCodeFingerprint('xyz', '2.1.150'));
  assert.notEqual(claudeCodeFingerprint(REAL, '2.1.150'), claudeCodeFingerprint(REAL, '2.1.151'));
});

test('a resumed session whose fingerprint came from a reminder gets the fresh session billing line', async () => {
  const fresh = longSessionBody();
  const resumed = longSessionBody({ resumed: true });
  assert.notEqual(resumed.system[0].text, fresh.system[0].text);
  const run = await runBuiltin(fingerprintStrip, resumed);
  assert.equal(run.changed, true);
  assert.equal(resumed.system[0].text, fresh.system[0].text);
  assert.equal(resumed.system[0].text, `x-anthropic-billing-header: cc_version=2.1.150.${claudeCodeFingerprint(REAL, '2.1.150')}; cc_entrypoint=cli;`);
});

test('a fresh session and an unverifiable suffix (e.g. an editor build hash) are left alone', async () => {
  const fresh = longSessionBody();
  assert.equal((await runBuiltin(fingerprintStrip, fresh)).changed, false);
  const foreign = longSessionBody({ resumed: true });
  foreign.system[0].text = 'x-anthropic-billing-header: cc_version=2.1.150.zz9; cc_entrypoint=vscode;';
  const before = foreign.system[0].text;
  const other = longSessionBody({ resumed: true });
  other.system[0].text = 'x-anthropic-billing-header: cc_version=2.1.150.fff; cc_entrypoint=cli;';
  await runBuiltin(fingerprintStrip, foreign);
  const run = await runBuiltin(fingerprintStrip, other);
  assert.equal(foreign.system[0].text, before);
  // fff is not what Claude Code computes for either candidate text, so it stays.
  assert.equal(run.changed, claudeCodeFingerprint(other.messages[0].content[0].text, '2.1.150') === 'fff');
});
