import assert from 'node:assert/strict';
import { test } from 'node:test';
import { maskKey, redactHeaders } from '../../core/redact.ts';

test('maskKey keeps only the prefix and the last four characters', () => {
  const key = 'sk-' + 'A'.repeat(44) + 'a1b2';
  assert.equal(maskKey(key), 'sk-…a1b2');
  assert.ok(!maskKey(key).includes('AAAA'));
  assert.equal(maskKey('short'), '…');
  assert.equal(maskKey(undefined), '(none)');
});

test('redactHeaders hides credential headers whatever their case', () => {
  const out = redactHeaders({ Authorization: 'Bearer sk-x', 'x-api-key': 'sk-y', Cookie: 'a=b', accept: 'json' });
  assert.deepEqual(out, { Authorization: '[redacted]', 'x-api-key': '[redacted]', Cookie: '[redacted]', accept: 'json' });
});
