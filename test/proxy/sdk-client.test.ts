import { test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { messageEvents, replyJson, replySse, startFakeUpstream } from './helpers/fake-upstream.ts';
import { startProxy } from './helpers/proxy-under-test.ts';

test('the official SDK works through the proxy, streaming and not, with its auth headers intact', async (t) => {
  const upstream = await startFakeUpstream();
  t.after(() => upstream.close());
  const proxy = await startProxy(t, upstream.url);

  // SDK 1.12 sends apiKey as a Bearer token; x-api-key is what Claude Code sends, so add it too.
  const client = new Anthropic({ baseURL: proxy.url, apiKey: 'sk-sdk-bearer-value', defaultHeaders: { 'x-api-key': 'sk-ant-sdk-key' }, maxRetries: 0, timeout: 10_000 });
  const message = await client.messages.create({ model: 'claude-opus-4-8', max_tokens: 64, messages: [{ role: 'user', content: 'Say hi' }] });
  assert.equal(message.content[0].type, 'text');
  assert.equal((message.content[0] as { text: string }).text, 'hi from fake upstream');
  const seen = upstream.received[0];
  assert.equal(seen.headers.authorization, 'Bearer sk-sdk-bearer-value');
  assert.equal(seen.headers['x-api-key'], 'sk-ant-sdk-key');
  assert.equal(typeof seen.headers['anthropic-version'], 'string');
  assert.equal(seen.url, '/v1/messages');

  upstream.respond(replySse(messageEvents({ text: 'streamed café ✓' }), {}, 1));
  const stream = client.messages.stream({ model: 'claude-opus-4-8', max_tokens: 64, messages: [{ role: 'user', content: 'Stream please' }] });
  let text = '';
  stream.on('text', (delta) => {
    text += delta;
  });
  const final = await stream.finalMessage();
  assert.equal(text, 'streamed café ✓');
  assert.equal(final.stop_reason, 'end_turn');
  upstream.respond(replyJson);
});
