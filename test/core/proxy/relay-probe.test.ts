// `gwctl proxy upstream check`: a messages-compatible relay passes every property; a
// chat-completions /v1 address is refused; a relay that answers a wrong key with 200 is unusable.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { undiciGet } from '../../../core/client/undici-http-get.ts';
import { undiciPost } from '../../../core/proxy/http-post.ts';
import { probeRelay } from '../../../core/proxy/relay-probe.ts';
import { FakeUpstream, jsonReply, sseReply, type RecordedRequest } from '../../helpers/fake-upstream.ts';

const KEY = 'sk-relay-test-key-0001';
let relay: FakeUpstream;
let lax: FakeUpstream;
let chatOnly: FakeUpstream;

function messagesRelay(checkKey: boolean) {
  return (req: RecordedRequest) => {
    if (req.method === 'GET' && req.path === '/v1/models') return jsonReply(200, { data: [{ id: 'relay-model' }] });
    if (req.method !== 'POST' || req.path !== '/v1/messages') return jsonReply(404, { type: 'error', error: { type: 'not_found_error', message: 'no route' } });
    if (checkKey && req.headers.authorization !== `Bearer ${KEY}`) return jsonReply(401, { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } });
    const body = req.json();
    if (!Array.isArray(body.messages)) return jsonReply(400, { type: 'error', error: { type: 'invalid_request_error', message: 'messages: must be an array' } });
    if (body.stream) return sseReply([`event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { id: 'm', model: body.model, usage: {} } })}\n\n`, 'event: message_stop\ndata: {"type":"message_stop"}\n\n']);
    return jsonReply(200, { id: 'm', type: 'message', role: 'assistant', model: body.model, content: [{ type: 'text', text: 'ok' }] });
  };
}

before(async () => {
  [relay, lax, chatOnly] = await Promise.all([FakeUpstream.start(), FakeUpstream.start(), FakeUpstream.start()]);
  relay.handle(messagesRelay(true));
  lax.handle(messagesRelay(false));
  chatOnly.handle((req) => (req.path.startsWith('/v1/chat/completions') ? jsonReply(200, { choices: [] }) : jsonReply(404, { error: { message: 'Not Found', type: 'invalid_request_error' } })));
});
after(async () => Promise.all([relay.close(), lax.close(), chatOnly.close()]));

const probe = (url: string) => probeRelay({ url, key: KEY, keyVar: 'MSGAPI_AUTH_TOKEN', header: 'bearer', proxyUrl: 'http://127.0.0.1:9801', timeoutMs: 5_000, post: undiciPost, get: undiciGet });

test('a messages-compatible relay: every property passes, with the model it lists', async () => {
  const report = await probe(relay.url);
  assert.equal(report.ok, true, JSON.stringify(report.checks, null, 2));
  assert.equal(report.model, 'relay-model');
  assert.deepEqual(report.checks.map((c) => [c.id, c.status]), [
    ['relay.address', 'pass'],
    ['relay.messages', 'pass'],
    ['relay.auth-header', 'pass'],
    ['relay.sse', 'pass'],
    ['relay.wrong-key', 'pass'],
    ['relay.statuses', 'pass'],
    ['relay.signature', 'pass'],
  ]);
  assert.match(report.checks.find((c) => c.id === 'relay.statuses')!.observed, /statuses seen: 200, 200, 401, 400/);
  const wrong = relay.requests.find((r) => r.headers.authorization === 'Bearer sk-gwctl-probe-invalid-key-000000000000');
  assert.ok(wrong, 'a wrong key was sent');
});

test('a chat-completions /v1 address is refused', async () => {
  const report = await probe(`${chatOnly.url}/v1`);
  assert.equal(report.ok, false);
  const address = report.checks.find((c) => c.id === 'relay.address')!;
  assert.equal(address.cause, 'RELAY_CHAT_COMPLETIONS');
  assert.match(address.observed, /chat-completions-compatible address/);
  assert.equal(report.checks.find((c) => c.id === 'relay.messages')!.cause, 'RELAY_CHAT_COMPLETIONS');
  assert.equal(chatOnly.requests.find((r) => r.method === 'POST')!.path, '/v1/v1/messages');
});

test('a relay that answers a wrong key with 200 is not faithful', async () => {
  const report = await probe(lax.url);
  assert.equal(report.ok, false);
  const wrong = report.checks.find((c) => c.id === 'relay.wrong-key')!;
  assert.equal(wrong.status, 'fail');
  assert.equal(wrong.cause, 'RELAY_UNFAITHFUL_STATUS');
  assert.match(wrong.observed, /a wrong key → 200.*without checking the client's key/);
});

test('nothing listening: unreachable, and nothing else is claimed', async () => {
  const report = await probe('http://127.0.0.1:1');
  assert.equal(report.ok, false);
  assert.deepEqual(report.checks.map((c) => [c.id, c.cause]), [['relay.address', 'OK'], ['relay.messages', 'RELAY_UNREACHABLE']]);
});

test('the stream check reads past keep-alive comments (CRLF, no event names) and wants message_start first', async (t) => {
  const cases: Array<[string, string, string]> = [
    ['comment first, CRLF, type only', `: ping\r\n\r\ndata: {"type":"message_start","message":{"id":"m"}}\r\n\r\n`, 'pass'],
    ['an error event first', `event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"busy"}}\n\n`, 'fail'],
  ];
  for (const [name, firstEvent, status] of cases) {
    const upstream = await FakeUpstream.start();
    t.after(() => upstream.close());
    const relayed = messagesRelay(true);
    upstream.handle((req) => {
      if (req.method === 'POST' && req.path === '/v1/messages' && req.json().stream && req.headers.authorization === `Bearer ${KEY}`) {
        const [comment, rest] = firstEvent.startsWith(':') ? [firstEvent.slice(0, 10), firstEvent.slice(10)] : ['', firstEvent];
        return sseReply([comment, rest, 'event: message_stop\ndata: {"type":"message_stop"}\n\n'].filter((c) => c !== ''), { delayMs: 20 });
      }
      return relayed(req);
    });
    const sse = (await probe(upstream.url)).checks.find((c) => c.id === 'relay.sse')!;
    assert.equal(sse.status, status, `${name}: ${sse.observed}`);
  }
});
