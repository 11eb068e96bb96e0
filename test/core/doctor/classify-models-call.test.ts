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
