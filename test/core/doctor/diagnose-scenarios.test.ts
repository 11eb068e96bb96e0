// One scenario per cause code the other diagnosis tests do not reach, each asserted with its code
// and a remedy built from known-good data (never the address that failed).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BASE, KEY, PROXY, answer, diagnose, json, refused } from './diagnose-harness.ts';

const direct = { ANTHROPIC_BASE_URL: BASE, ANTHROPIC_AUTH_TOKEN: KEY };
const proxyDown = { [`${PROXY}/health`]: refused };

test('KEY_WHITESPACE and KEY_PREFIX from the key the client would send', async () => {
  const spaced = await diagnose({ sendRequest: false, env: { ...direct, ANTHROPIC_AUTH_TOKEN: `${KEY} ` }, get: proxyDown });
  assert.equal(spaced.by['key.format'].cause, 'KEY_WHITESPACE');
  const prefix = await diagnose({ sendRequest: false, env: { ...direct, ANTHROPIC_AUTH_TOKEN: 'gw-' + 'p'.repeat(40) }, get: proxyDown });
  assert.deepEqual([prefix.by['key.format'].status, prefix.by['key.format'].cause], ['warn', 'KEY_PREFIX']);
});

test('URL_UNREACHABLE and TLS_ERROR on the direct request', async () => {
  const gone = await diagnose({ sendRequest: false, env: direct, get: { ...proxyDown, [`${BASE}/v1/models`]: refused } });
  assert.equal(gone.by['direct.request'].cause, 'URL_UNREACHABLE');
  const tls = await diagnose({ sendRequest: false, env: direct, get: { ...proxyDown, [`${BASE}/v1/models`]: { kind: 'error', failure: { kind: 'tls', code: 'ERR_SSL_WRONG_VERSION_NUMBER', message: 'wrong version number' } } } });
  assert.equal(tls.by['direct.request'].cause, 'TLS_ERROR');
  assert.match(tls.by['direct.request'].remedy!, /plain HTTP, not HTTPS/);
});

test('AUTH_FORBIDDEN from the short real request', async () => {
  const { by, report } = await diagnose({ env: direct, get: proxyDown, messages: answer(403, { type: 'error', error: { type: 'permission_error', message: 'This key is disabled for this account.' } }) });
  assert.equal(by['messages.request'].cause, 'AUTH_FORBIDDEN');
  assert.equal(report.verdict.cause, 'AUTH_FORBIDDEN');
});

test('URL_NOT_FOUND for a base with a wrong path: the remedy comes from the gateway 404, never the wrong address', async () => {
  const wrong = `${BASE}/api`;
  const hint = json(404, { error: { code: 'not_found', message: `Unknown path: GET /api/v1/models. This address serves ${BASE}/v1/models, /v1/chat/completions, /v1/responses, /v1/embeddings and /v1/messages.` } });
  const notFound = answer(404, { type: 'error', error: { type: 'not_found_error', message: `Unknown path: POST /api/v1/messages. This address serves ${BASE}/v1/models, /v1/chat/completions, /v1/responses, /v1/embeddings and /v1/messages.` } });
  const { by, report } = await diagnose({ env: { ANTHROPIC_BASE_URL: wrong, ANTHROPIC_AUTH_TOKEN: KEY, GWCTL_BASE_URL: wrong }, get: { ...proxyDown, [`${wrong}/v1/models`]: hint }, messages: notFound });
  for (const id of ['direct.request', 'messages.request']) {
    const check = by[id];
    assert.equal(check.cause, 'URL_NOT_FOUND', id);
    assert.match(check.remedy!, new RegExp(`Use ${BASE} as a messages client's base address`), id);
    assert.ok(check.commands.includes(`gwctl verify --base-url ${BASE}`), id);
    assert.ok(!check.commands.some((c) => c.includes(wrong)), `${id} suggests the address that answered 404: ${check.commands}`);
    assert.ok(!check.remedy!.includes(`Use ${wrong}`) && !check.remedy!.includes(`${wrong}/v1`), check.remedy!);
  }
  assert.equal(report.verdict.cause, 'URL_NOT_FOUND');
  const chat = await diagnose({ client: 'chat', flags: { baseUrl: wrong }, env: { ANTHROPIC_AUTH_TOKEN: KEY }, get: { [`${wrong}/models`]: json(404, { error: { code: 'not_found', message: `Unknown path: GET /api/models. This address serves ${BASE}/v1/models, /v1/chat/completions.` } }) } });
  assert.equal(chat.by['direct.request'].cause, 'URL_NOT_FOUND', 'a wrong path, not a missing /v1');
  assert.deepEqual(chat.by['direct.request'].commands, [`gwctl verify --type chat --base-url ${BASE}/v1`, `gwctl config set baseUrl ${BASE}`]);
  const silent = await diagnose({ client: 'chat', flags: { baseUrl: `${wrong}/v1` }, env: { ANTHROPIC_AUTH_TOKEN: KEY }, get: { [`${wrong}/v1/models`]: json(404, { detail: 'Not Found' }) } });
  assert.equal(silent.by['direct.request'].cause, 'URL_NOT_FOUND');
  assert.match(silent.by['direct.request'].remedy!, /the answer names no other\)\. Take the base address from the service's web page or its operator/);
  assert.ok(!silent.by['direct.request'].commands.some((c) => c.includes(wrong)));
});
