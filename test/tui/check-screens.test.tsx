// Verify key and Diagnose: a spinner on the running check with the elapsed time, then each result
// with its symbol, cause code, what was observed, the remedy and the commands; the summary line and
// the command that does the same by hand. The engine is the real one; its HTTP is faked.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { HttpOutcome } from '../../core/client/http-get.ts';
import type { PostOutcome } from '../../core/proxy/http-post.ts';
import { deferred, fakeHttp, fakePost, flat, KEY, renderApp, reply, TEST_KEY, machinesForThisFile } from './tui-harness.tsx';

const setup = machinesForThisFile();

test('verify: spinner and elapsed time while the model list is asked for, then PASS lines and the summary', async () => {
  const held = deferred<HttpOutcome>();
  let calls = 0;
  // The home panel verifies too; only the Verify screen's own request is held back.
  const m = setup({ http: fakeHttp({ models: () => (++calls === 1 ? reply.models() : held.promise) }) });
  const app = renderApp(m.deps);
  await app.waitFor('verified: 1 model');
  await app.press(KEY.enter);
  const running = await app.waitFor('gwctl › Verify key', '✔ key.present', '✔ url.shape', 'models.list', 'running…');
  assert.match(running, /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Verifying \(messages route\)… \d+\.\ds/);
  held.resolve(reply.models(['demo-chat', 'claude-x']));
  const done = flat(await app.waitFor('✔ models.list', 'OK: 4 passed, 0 warnings, 0 failed, 0 skipped'));
  assert.match(done, /✔ http:\/\/gw\.test:8080\/v1\/models · key from ANTHROPIC_AUTH_TOKEN \d+\.\ds/);
  assert.match(done, /ANTHROPIC_AUTH_TOKEN is set \(sk-…Ab12\)/);
  assert.match(done, /Models: demo-chat, claude-x/);
  assert.match(done, /By hand: \$ gwctl verify/);
  assert.ok(app.frames.every((f) => !f.includes(TEST_KEY)));
  app.unmount();
});

test('verify: a rejected key shows KEY_REJECTED with the observation, the remedy and the commands', async () => {
  const m = setup({ http: fakeHttp({ models: reply.unauthorized() }) });
  const app = renderApp(m.deps);
  await app.press('1');
  const frame = flat(await app.waitFor('✖ models.list', 'KEY_REJECTED', 'FAILED: 3 passed'));
  assert.match(frame, /observed +GET http:\/\/gw\.test:8080\/v1\/models → 401 invalid_api_key: Invalid API key/);
  assert.match(frame, /remedy +A deleted key is gone for good: create a new one on http:\/\/gw\.test:8080\/keys/);
  assert.match(frame, /\$ read -rs ANTHROPIC_AUTH_TOKEN && export ANTHROPIC_AUTH_TOKEN/);
  app.unmount();
});

test('verify: a key kept in the neutral MSGAPI_AUTH_TOKEN is found, as gwctl start finds it', async () => {
  const m = setup({ env: { ANTHROPIC_AUTH_TOKEN: undefined, MSGAPI_AUTH_TOKEN: TEST_KEY } });
  const app = renderApp(m.deps);
  await app.press('1');
  const frame = flat(await app.waitFor('OK: 4 passed'));
  assert.match(frame, /key from MSGAPI_AUTH_TOKEN/);
  app.unmount();
});

test('verify: t switches the route type (the chat route adds /v1), r runs again', async () => {
  const m = setup();
  const app = renderApp(m.deps);
  await app.press('1');
  await app.waitFor('OK: 4 passed');
  await app.press('t');
  const chat = flat(await app.waitFor('type: chat', 'gwctl verify --type chat', 'OK: 4 passed', 'ends with /v1 once'));
  assert.match(chat, /http:\/\/gw\.test:8080\/v1 ends with \/v1 once, as a chat-completions client's base URL should/);
  const before = m.http.calls.length;
  await app.press('r');
  await app.waitFor('OK: 4 passed');
  assert.ok(m.http.calls.length > before, 'asked again');
  app.unmount();
});

test('verify: long results scroll with j/k and the position is shown', async () => {
  const m = setup({ env: { ANTHROPIC_AUTH_TOKEN: ' “sk-abc def”\n', GWCTL_BASE_URL: 'http://gw.test:8080/v1' } });
  const app = renderApp(m.deps, { size: { columns: 80, rows: 16 } });
  await app.press('1');
  const first = await app.waitFor(/rows 1–\d+ of \d+ ↓ · j\/k scroll/);
  assert.ok(first.split('\n').length <= 16);
  await app.press('j', 'j', 'j');
  await app.waitFor(/↑ rows 4–\d+ of \d+/);
  await app.press('G');
  await app.waitFor(/↑ rows \d+–(\d+) of \1 · j\/k scroll/);
  await app.press('g');
  await app.waitFor(/ rows 1–/);
  app.unmount();
});

test('diagnose: pick the status, then the checks in order with cause codes; s picks another', async () => {
  const m = setup({ env: { ANTHROPIC_BASE_URL: 'http://127.0.0.1:9801' }, http: fakeHttp({ health: reply.refused() }) });
  const app = renderApp(m.deps, { size: { columns: 120, rows: 80 } });
  await app.press('3');
  const picker = await app.waitFor('What did the client show?', '› No status', '401', 'Client through the local proxy', 'By hand: $ gwctl diagnose', 'Sends one short real request');
  assert.match(picker, /503 +GET \/health on the local proxy|503 +Via proxy or upstream/);
  assert.match(picker, /529 +Any, from the upstream/);
  await app.press(KEY.down, KEY.down);
  await app.waitFor('› 401', 'gwctl diagnose --status 401');
  await app.press(KEY.enter);
  const result = flat(await app.waitFor('Diagnosis for 401', '✖ proxy.running', 'PROXY_DOWN', 'FAILED:', 'verdict'));
  assert.match(result, /observed +GET http:\/\/127\.0\.0\.1:9801\/health → ECONNREFUSED/);
  assert.match(result, /\$ curl -s http:\/\/127\.0\.0\.1:9801\/health/);
  assert.match(result, /✖ verdict +PROXY_DOWN observed from proxy\.running:/);
  assert.equal(m.post.calls.length, 1, 'the short real request, direct while the proxy is down');
  assert.equal(m.post.calls[0]!.url, 'http://gw.test:8080/v1/messages');
  await app.press('s');
  await app.waitFor('What did the client show?', '› 401');
  await app.press(KEY.up, KEY.up, 'x');
  await app.waitFor('The short real request is left out', 'By hand: $ gwctl diagnose --no-request');
  await app.press(KEY.enter);
  const none = flat(await app.waitFor('Diagnosis (no status given)', /[✔✖⚠○] plane\.same/, 'not sent (--no-request)'));
  assert.match(none, /○ messages\.request POST \/v1\/messages not sent \(--no-request\)/);
  assert.equal(m.post.calls.length, 1, 'nothing more was sent');
  app.unmount();
});

test('diagnose: the short real request shows what the client sees, labelled as a real request', async () => {
  const refused: PostOutcome = { kind: 'response', status: 400, headers: { 'x-request-id': 'req_9', 'request-id': 'req_up', 'x-gateway-provider': 'vendor-a' }, body: JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'messages.1.role: bad' } }), eventStream: false };
  const m = setup({ post: fakePost(refused) });
  const app = renderApp(m.deps, { size: { columns: 120, rows: 80 } });
  await app.press('3', KEY.enter);
  const result = flat(await app.waitFor('✖ messages.request', 'REQUEST_REJECTED', 'verdict'));
  assert.match(result, /real request, may cost a few tokens\) → 400: invalid_request_error: messages\.1\.role: bad \(answered by the upstream provider "vendor-a"/);
  assert.match(result, /✖ verdict +REQUEST_REJECTED observed from messages\.request: POST/);
  app.unmount();
});

test('diagnose: c chooses a chat-completions client: its base URL and key only, no proxy, one chat-completions request', async () => {
  const chat: PostOutcome = { kind: 'response', status: 200, headers: { 'x-request-id': 'req_2', 'request-id': 'req_2', 'x-gateway-provider': 'demo' }, body: JSON.stringify({ object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'Demo' } }] }), eventStream: false };
  const m = setup({ env: { ANTHROPIC_BASE_URL: 'http://127.0.0.1:9801' }, http: fakeHttp({ health: reply.refused() }), post: fakePost(() => chat) });
  const app = renderApp(m.deps, { size: { columns: 120, rows: 80 } });
  await app.press('3');
  await app.waitFor('What did the client show?', 'Client: messages client');
  await app.press('c');
  await app.waitFor('Client: chat-completions client', 'the proxy is for messages clients only', 'By hand: $ gwctl diagnose --client chat');
  await app.press(KEY.enter);
  const result = flat(await app.waitFor('Diagnosis (no status given)', '✔ direct.request', '✔ protocol.request', 'OK:'));
  assert.match(result, /GET http:\/\/gw\.test:8080\/v1\/models → 200/);
  assert.doesNotMatch(result, /proxy\.running|messages\.request/);
  assert.deepEqual(m.post.calls.map((c) => c.url), ['http://gw.test:8080/v1/chat/completions'], 'the short request in the chat client\'s own protocol, never /v1/messages');
  app.unmount();
});
