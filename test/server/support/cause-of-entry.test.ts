// Every refusal code the gateway writes maps to one catalogue cause; upstream statuses relayed as
// they came, outcomes of cut answers and wrong paths too. A code missing here would fall back to
// REQUEST_REJECTED or UPSTREAM_FAULT silently, so the table is checked whole.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { causeEntry } from '../../../core/causes/catalogue.ts';
import type { RequestLogRecord } from '../../../server/store/request-log-repo.ts';
import { causeOfEntry } from '../../../server/support/cause-of-entry.ts';

const base: RequestLogRecord = {
  id: 1, at: Date.UTC(2026, 10, 27, 8), userId: 'u1', keyId: 'k1', model: 'demo-chat', status: 200, inputTokens: 1, outputTokens: 1, latencyMs: 5,
  sessionId: null, outcome: null, requestedModel: null, requestId: 'req_x', method: 'POST', path: '/v1/chat/completions', protocol: 'openai',
  errorCode: null, errorMessage: null, keyHint: null, keyFingerprint: null, provider: null, upstreamStatus: null, upstreamRequestId: null, attempts: null,
  costMicros: 0, costEstimated: false,
};
const entry = (over: Partial<RequestLogRecord>): RequestLogRecord => ({ ...base, ...over });

test('gateway refusal codes name their cause', () => {
  const cases: Array<[string, number, string, Partial<RequestLogRecord>?]> = [
    ['missing_api_key', 401, 'KEY_MISSING'],
    ['malformed_authorization', 401, 'KEY_MISSING'],
    ['malformed_api_key', 401, 'KEY_QUOTES', { errorMessage: 'The key in the Authorization header is wrapped in quotes; send the bare key.' }],
    ['malformed_api_key', 401, 'KEY_WHITESPACE', { errorMessage: 'The key in the Authorization header contains a line break.' }],
    ['invalid_api_key', 401, 'KEY_UNKNOWN', { userId: '', keyId: '', keyHint: 'sk-…abcd', keyFingerprint: '0123456789abcdef' }],
    ['account_disabled', 401, 'USER_DISABLED'],
    ['key_expired', 401, 'KEY_EXPIRED'],
    ['quota_exceeded', 429, 'QUOTA_EXCEEDED'],
    ['rate_limit_exceeded', 429, 'RATE_LIMITED'],
    ['model_not_allowed', 403, 'MODEL_NOT_ALLOWED'],
    ['model_not_found', 404, 'MODEL_UNKNOWN'],
    ['doubled_v1', 404, 'URL_DOUBLE_V1', { path: '/v1/v1/messages' }],
    ['missing_v1', 404, 'URL_MISSING_V1', { path: '/messages' }],
    ['not_found', 404, 'URL_WRONG_PATH', { path: '/api/v1/chat' }],
    ['upstream_auth_failed', 502, 'UPSTREAM_AUTH', { provider: 'openai-main', upstreamStatus: 401 }],
    ['upstream_unreachable', 502, 'UPSTREAM_FAULT', { provider: 'openai-main' }],
    ['upstream_timeout', 504, 'UPSTREAM_FAULT'],
    ['request_too_large', 413, 'REQUEST_TOO_LARGE'],
    ['invalid_json', 400, 'REQUEST_REJECTED'],
    ['database_unavailable', 503, 'UPSTREAM_FAULT'],
  ];
  for (const [code, status, cause, over] of cases) {
    const found = causeOfEntry(entry({ errorCode: code, status, errorMessage: `message of ${code}`, ...over }));
    assert.equal(found.cause, cause, code);
    assert.ok(causeEntry(found.cause as never).userRemedy, `${cause} is in the catalogue`);
  }
});

test('an upstream error relayed as it came is named by its status; a cut answer by its outcome', () => {
  const relayed = (upstreamStatus: number) => causeOfEntry(entry({ status: upstreamStatus, provider: 'up', upstreamStatus, upstreamRequestId: 'abc' })).cause;
  assert.equal(relayed(429), 'RATE_LIMITED');
  assert.equal(relayed(529), 'UPSTREAM_OVERLOADED');
  assert.equal(relayed(503), 'UPSTREAM_FAULT');
  assert.equal(relayed(400), 'REQUEST_REJECTED');
  assert.equal(causeOfEntry(entry({ outcome: 'client_aborted' })).cause, 'CLIENT_ABORTED');
  const cut = causeOfEntry(entry({ outcome: 'upstream_cut', provider: 'up', upstreamStatus: 200 }));
  assert.equal(cut.cause, 'UPSTREAM_FAULT');
  assert.ok(cut.facts.some((f) => /stopped in the middle/.test(f)));
  assert.deepEqual(causeOfEntry(entry({})), { cause: 'OK', facts: [] });
});

test('a refused value that belonged to a deleted key is KEY_DELETED, with when and by whom', () => {
  const found = causeOfEntry(entry({ errorCode: 'invalid_api_key', status: 401, userId: '', keyId: '', keyFingerprint: 'ffffeeeeddddcccc' }), {
    deletedKey: { keyId: 'key_1', userId: 'u1', username: 'alice', name: 'laptop', hint: 'sk-…wxyz', createdAt: '2026-11-01T00:00:00.000Z', deletedAt: '2026-11-20T10:11:12.000Z', fingerprint: 'ffffeeeeddddcccc', deletedBy: 'user:alice' },
  });
  assert.equal(found.cause, 'KEY_DELETED');
  assert.ok(found.facts.includes('The key sk-…wxyz (key_1, "laptop") of alice was deleted at 2026-11-20 10:11:12 UTC by user:alice.'), found.facts.join('\n'));
});
