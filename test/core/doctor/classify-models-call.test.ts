// Every answer class of GET …/models maps to one cause code with the error-table remedy.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ModelsCall } from '../../../core/client/gateway-client.ts';
import type { HttpOutcome, NetworkFailureKind } from '../../../core/client/http-get.ts';
import { classifyModelsCall, type CallExpectations } from '../../../core/doctor/classify-models-call.ts';
import { lintKey } from '../../../core/doctor/key-lint.ts';

const BASE = 'https://gw.example.com';
const exp = (over: Partial<CallExpectations> = {}): CallExpectations => ({
  routeType: 'messages',
  baseUrl: BASE,
  vars: { base_url: BASE, token_var: 'MSGAPI_AUTH_TOKEN', base_var: 'MSGAPI_BASE_URL', proxy_url: 'http://127.0.0.1:9801' },
  keyFindings: [],
  timeoutMs: 5000,
  ...over,
});

function response(status: number, body: unknown, headers: Record<string, string> = {}): ModelsCall {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const outcome: HttpOutcome = { kind: 'response', status, headers, body: text };
  const call: ModelsCall = { url: `${BASE}/v1/models`, outcome };
  const parsed = typeof body === 'object' ? (body as { data?: Array<{ id: string }>; error?: { code?: string; message?: string } }) : undefined;
  if (status === 200 && parsed?.data) call.models = parsed.data.map((m) => m.id);
  if (parsed?.error?.code) call.errorCode = parsed.error.code;
  if (parsed?.error?.message) call.errorMessage = parsed.error.message;
  return call;
}

function failure(kind: NetworkFailureKind, code: string): ModelsCall {
  return { url: `${BASE}/v1/models`, outcome: { kind: 'error', failure: { kind, code, message: code } } };
}

const openAiError = (code: string, message = 'x') => ({ error: { message, type: 'authentication_error', param: null, code } });

test('200 with a model list passes and names the models', () => {
  const result = classifyModelsCall(response(200, { object: 'list', data: [{ id: 'demo-chat' }] }), exp());
  assert.equal(result.status, 'pass');
  assert.equal(result.cause, 'OK');
  assert.match(result.observed, /1 model: demo-chat\. Address reachable, key recognised/);
  assert.doesNotMatch(result.observed, /spec/);
});

test('401 answers: rejected, missing, quotes and whitespace', () => {
  const rejected = classifyModelsCall(response(401, openAiError('invalid_api_key')), exp());
  assert.equal(rejected.cause, 'KEY_REJECTED');
  assert.match(rejected.remedy!, /A deleted key is gone for good: create a new one on https:\/\/gw\.example\.com\/keys/);
  assert.ok(rejected.commands.some((c) => c.includes('read -rs MSGAPI_AUTH_TOKEN')));
  assert.equal(classifyModelsCall(response(401, openAiError('missing_api_key')), exp()).cause, 'KEY_MISSING');
  assert.equal(classifyModelsCall(response(401, openAiError('malformed_api_key', 'contains a typographic quote')), exp()).cause, 'KEY_QUOTES');
  assert.equal(classifyModelsCall(response(401, openAiError('malformed_api_key', 'contains a space or tab')), exp()).cause, 'KEY_WHITESPACE');
  assert.equal(classifyModelsCall(response(401, 'Unauthorized'), exp({ keyFindings: lintKey('sk-a b') })).cause, 'KEY_WHITESPACE');
  // The gateway's refusal advises against spaces and quotes; that advice is not a finding about this key.
  const advice = 'Invalid API key (sk-…a1b2): it is unknown, incomplete or was deleted. A deleted key cannot come back: create a new one on the keys page. An unknown key is mistyped or incomplete: copy it again, whole, from where you saved it and send it bare (no spaces, line breaks or quotes).';
  assert.equal(classifyModelsCall(response(401, openAiError('invalid_api_key', advice)), exp()).cause, 'KEY_REJECTED');
});

test('403, 404 forms, 429 with Retry-After, 5xx and odd answers', () => {
  assert.equal(classifyModelsCall(response(403, { error: { code: 'forbidden' } }), exp()).cause, 'AUTH_FORBIDDEN');
  assert.equal(classifyModelsCall(response(404, openAiError('doubled_v1')), exp()).cause, 'URL_DOUBLE_V1');
  assert.equal(classifyModelsCall(response(404, openAiError('missing_v1')), exp()).cause, 'URL_MISSING_V1');
  assert.equal(classifyModelsCall(response(404, openAiError('not_found')), exp({ routeType: 'chat', baseUrl: BASE })).cause, 'URL_MISSING_V1');
  assert.equal(classifyModelsCall(response(404, openAiError('not_found')), exp()).cause, 'URL_NOT_FOUND');
  assert.equal(classifyModelsCall(response(200, '<html>login</html>'), exp()).cause, 'URL_NOT_FOUND');
  const limited = classifyModelsCall(response(429, openAiError('rate_limit_exceeded'), { 'retry-after': '42' }), exp());
  assert.equal(limited.cause, 'RATE_LIMITED');
  assert.match(limited.observed, /Retry-After: 42 s/);
  const fault = classifyModelsCall(response(503, '<html>Service Unavailable</html>'), exp());
  assert.equal(fault.cause, 'UPSTREAM_FAULT');
  assert.match(fault.observed, /503 <html>Service Unavailable/);
  assert.match(fault.remedy!, /Start directly to tell them apart/);
  assert.equal(classifyModelsCall(response(405, ''), exp()).cause, 'URL_NOT_FOUND');
});

test('network failures: DNS, refused, timeouts, TLS, unsendable key', () => {
  assert.equal(classifyModelsCall(failure('dns', 'ENOTFOUND'), exp()).cause, 'URL_UNREACHABLE');
  assert.equal(classifyModelsCall(failure('refused', 'ECONNREFUSED'), exp()).cause, 'URL_UNREACHABLE');
  assert.equal(classifyModelsCall(failure('connect-timeout', 'UND_ERR_CONNECT_TIMEOUT'), exp()).cause, 'URL_UNREACHABLE');
  assert.equal(classifyModelsCall(failure('timeout', 'UND_ERR_HEADERS_TIMEOUT'), exp()).cause, 'UPSTREAM_FAULT');
  const plain = classifyModelsCall(failure('tls', 'ERR_SSL_WRONG_VERSION_NUMBER'), exp());
  assert.equal(plain.cause, 'TLS_ERROR');
  assert.match(plain.remedy!, /plain HTTP/);
  const cert = classifyModelsCall(failure('tls', 'DEPTH_ZERO_SELF_SIGNED_CERT'), exp());
  assert.match(cert.remedy!, /NODE_EXTRA_CA_CERTS/);
  assert.equal(classifyModelsCall(failure('invalid', 'UND_ERR_INVALID_ARG'), exp({ keyFindings: lintKey('sk-a\nb') })).cause, 'KEY_WHITESPACE');
});

test('429 quota_exceeded is a used-up budget: the reset time in words, no "wait and retry"', () => {
  const message = 'This API key has used its daily budget of 3 requests. This is a quota, not a rate limit: retrying sooner will not help. It resets at 2026-11-28T00:00:00.000Z (in 72241 s).';
  const quota = classifyModelsCall(response(429, { error: { code: 'quota_exceeded', message, type: 'rate_limit_error' } }, { 'retry-after': '72241', 'x-should-retry': 'false' }), exp());
  assert.equal(quota.cause, 'QUOTA_EXCEEDED');
  assert.match(quota.observed, /Retry-After: 72241 s, x-should-retry: false/);
  assert.match(quota.remedy!, /^The budget is used up and resets in 20 h 4 min \(2026-11-28 00:00 UTC\)\. This is a quota, not a rate limit: retrying sooner will not help/);
  assert.doesNotMatch(quota.remedy!, /Wait \d|spread requests out/);
  // x-should-retry: false alone (a quota answer without the code) is honoured the same way.
  assert.equal(classifyModelsCall(response(429, { error: { message: 'no' } }, { 'retry-after': '90', 'x-should-retry': 'false' }), exp()).cause, 'QUOTA_EXCEEDED');
});

test('429 rate limit: one wait, in words, said once', () => {
  const limited = classifyModelsCall(response(429, { error: { code: 'rate_limit_exceeded', message: 'This key is limited to 60 requests per minute. Retry after 42 s.' } }, { 'retry-after': '42', 'x-request-id': 'req_1', 'request-id': 'req_1' }), exp());
  assert.equal(limited.cause, 'RATE_LIMITED');
  assert.match(limited.remedy!, /^Wait 42 s and retry; it is this service's rate limit for your key/);
  assert.equal(limited.remedy!.match(/retry/gi)!.length, 1, limited.remedy!);
});

test('a 401 with quotes in the key carries the quotes remedy, an expired key its own', () => {
  const quoted = classifyModelsCall(response(401, openAiError('invalid_api_key')), exp({ keyFindings: lintKey('"sk-abc"') }));
  assert.equal(quoted.cause, 'KEY_QUOTES');
  assert.match(quoted.remedy!, /Remove the quotes/);
  assert.doesNotMatch(quoted.remedy!, /deleted key/);
  const expired = classifyModelsCall(response(401, openAiError('key_expired', 'This API key expired at 2026-01-01T00:00:00.000Z.')), exp());
  assert.equal(expired.cause, 'KEY_EXPIRED');
  assert.match(expired.remedy!, /later expiry/);
});
