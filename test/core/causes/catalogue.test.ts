// The one catalogue of causes: every code complete, standing alone, the server's texts free of
// client placeholders, and a rate limit kept apart from a used-up budget.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CAUSE_CODE_LIST, causeEntry, isCauseCode, type CauseCode } from '../../../core/causes/catalogue.ts';
import { CAUSE_CODES } from '../../../core/doctor/cause-codes.ts';

const SERVER_SIDE: CauseCode[] = ['KEY_DELETED', 'KEY_UNKNOWN', 'KEY_EXPIRED', 'USER_DISABLED', 'QUOTA_EXCEEDED', 'MODEL_NOT_ALLOWED', 'MODEL_UNKNOWN', 'UPSTREAM_AUTH', 'CLIENT_ABORTED', 'URL_WRONG_PATH'];

test('the catalogue holds every diagnosis code and the server-side ones, each complete', () => {
  const required = ['OK', 'KEY_MISSING', 'KEY_WHITESPACE', 'KEY_QUOTES', 'KEY_PREFIX', 'KEY_REJECTED', 'URL_DOUBLE_V1', 'URL_MISSING_V1', 'URL_NOT_FOUND', 'URL_UNREACHABLE', 'TLS_ERROR', 'RATE_LIMITED', 'UPSTREAM_FAULT', 'PROXY_DOWN', 'PROXY_DEGRADED', 'PROXY_FAULT', 'PROXY_UPSTREAM_DEFAULT', 'PROXY_UPSTREAM_MISMATCH', 'BASE_URL_NOT_PROXY', 'BASE_URL_PINNED_IN_SETTINGS', 'TOKEN_MISSING_IN_SHELL', 'CLIENT_NOT_FOUND', 'EXECUTION_PLANE_MISMATCH', 'AUTH_FORBIDDEN', 'REQUEST_REJECTED', 'MODEL_NOT_AVAILABLE', 'REQUEST_TOO_LARGE', 'UPSTREAM_OVERLOADED', 'FAILURE_NOT_REPRODUCED', ...SERVER_SIDE];
  for (const code of required) assert.ok(isCauseCode(code), code);
  for (const code of CAUSE_CODE_LIST) {
    const entry = causeEntry(code);
    assert.equal(entry.code, code);
    for (const field of ['summary', 'why', 'userRemedy', 'operatorRemedy'] as const) {
      assert.ok(entry[field].length > 10, `${code}.${field}`);
      assert.match(entry[field], /[.)]$/, `${code}.${field} ends a sentence`);
      assert.doesNotMatch(entry[field], /\bspec\b|rule \d|DESIGN|section \d/i, `${code}.${field} stands alone`);
    }
    for (const text of [entry.summary, entry.why, entry.userRemedy, entry.operatorRemedy, ...entry.commands, ...entry.operatorCommands]) {
      for (const name of text.match(/(?<!%)\{[a-z_]+\}/g) ?? []) assert.ok(['{base_url}', '{proxy_url}', '{token_var}', '{base_var}'].includes(name), `${code}: ${name}`);
    }
    for (const command of entry.operatorCommands) assert.match(command, /^(gwctl|curl) /, `${code}: ${command}`);
    assert.equal(CAUSE_CODES[code], entry.summary, 'the summary view is derived, not written twice');
  }
});

test("the gateway's own refusals read texts without client placeholders", () => {
  for (const code of SERVER_SIDE) assert.doesNotMatch(causeEntry(code).userRemedy, /\{/, code);
});

test('a rate limit and a used-up budget are two causes with opposite advice', () => {
  const rate = causeEntry('RATE_LIMITED');
  const quota = causeEntry('QUOTA_EXCEEDED');
  assert.match(rate.summary, /per minute/);
  assert.doesNotMatch(`${rate.summary} ${rate.userRemedy}`, /quota|budget/i);
  assert.match(rate.userRemedy, /Retry-After/);
  assert.match(quota.userRemedy, /^This is a quota, not a rate limit: retrying sooner will not help/);
  assert.match(causeEntry('UPSTREAM_AUTH').userRemedy, /Nothing is wrong with your key/);
});

test('an unknown code is a clear error, not an empty entry', () => {
  assert.throws(() => causeEntry('NO_SUCH' as CauseCode), /unknown cause code "NO_SUCH"; known: KEY_MISSING/);
});
