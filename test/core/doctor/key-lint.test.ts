import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lintKey } from '../../../core/doctor/key-lint.ts';

const KEY = 'sk-' + 'a'.repeat(44) + 'Zz90';
const causes = (value: string | undefined) => lintKey(value).map((f) => `${f.severity}:${f.cause}`);

test('a clean key has no findings', () => {
  assert.deepEqual(lintKey(KEY), []);
});

test('missing, whitespace, quotes and prefix are told apart', () => {
  assert.deepEqual(causes(undefined), ['fail:KEY_MISSING']);
  assert.deepEqual(causes(''), ['fail:KEY_MISSING']);
  assert.deepEqual(causes(`${KEY}\n`), ['fail:KEY_WHITESPACE']);
  assert.deepEqual(causes(` ${KEY}`), ['fail:KEY_WHITESPACE']);
  assert.deepEqual(causes(`sk-abc def${KEY}`), ['fail:KEY_WHITESPACE']);
  assert.deepEqual(causes(`“${KEY}”`), ['fail:KEY_QUOTES']);
  assert.deepEqual(causes(`‘${KEY}’`), ['fail:KEY_QUOTES']);
  assert.deepEqual(causes(`"${KEY}"`), ['fail:KEY_QUOTES']);
  assert.deepEqual(causes(`'${KEY}'`), ['fail:KEY_QUOTES']);
  assert.deepEqual(causes('abc123def456abc123'), ['warn:KEY_PREFIX']);
  assert.deepEqual(causes(` "${KEY}" `), ['fail:KEY_WHITESPACE', 'fail:KEY_QUOTES']);
});
