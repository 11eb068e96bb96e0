// The short request's streamed answer is read as server-sent events: a reply opening with
// message_start, its text from the text deltas, whatever the line endings and keep-alives.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sendMessagesProbe } from '../../../core/doctor/messages-probe.ts';
import type { HttpPost } from '../../../core/proxy/http-post.ts';

const streamed = (body: string): HttpPost => async () => ({ kind: 'response', status: 200, headers: { 'x-request-id': 'req_1' }, body, eventStream: true });
const request = { baseUrl: 'http://127.0.0.1:9801/', route: 'proxy' as const, credential: { header: 'bearer' as const, value: 'sk-test' }, model: 'm', timeoutMs: 1_000 };

test('a streamed reply: message_start makes it a message, text deltas make the reply (CRLF, comments, split data)', async () => {
  const body = [
    ': keep-alive',
    '',
    'event: message_start',
    'data: {"type":"message_start","message":{"id":"m"}}',
    '',
    'event: content_block_delta',
    'data: {"type":"content_block_delta","index":0,',
    'data: "delta":{"type":"text_delta","text":"Po"}}',
    '',
    'event: content_block_delta',
    'data:{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"ng"}}',
    '',
    '',
  ].join('\r\n');
  const call = await sendMessagesProbe(streamed(body), request);
  assert.equal(call.isMessage, true);
  assert.equal(call.reply, 'Pong');
});

test('a stream cut inside its first event is no message', async () => {
  const call = await sendMessagesProbe(streamed('event: message_start\ndata: {"type":"mess'), request);
  assert.equal(call.isMessage, false);
  assert.equal(call.reply, '');
});
