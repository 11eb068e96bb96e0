// The official `openai` client against a started gateway on its embedded default (demo provider):
// model list, chat completions as JSON and as a stream, with and without include_usage.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { GatewayProcess, isolateClientEnvironment } from '../helpers/gateway-process.ts';

// The demo model counts tokens with this rule (server/providers/demo/demo-text.ts), for prompt and reply alike.
const countTokens = (text: string) => (text.match(/\s*(?:[\p{L}\p{N}]+|[^\s\p{L}\p{N}])/gu) ?? []).length;

describe('openai client against the gateway (demo provider)', () => {
  let gateway: GatewayProcess;
  let client: OpenAI;
  let restoreEnv: () => void;

  before(async () => {
    restoreEnv = isolateClientEnvironment();
    gateway = await GatewayProcess.start();
    const { key } = await gateway.createKey('admin', 'openai-sdk');
    client = new OpenAI({ baseURL: `${gateway.textUrl}/v1`, apiKey: key, maxRetries: 0 });
  });

  after(async () => {
    await gateway?.cleanup();
    restoreEnv?.();
  });

  test('models.list lists the demo text and embedding models, in the OpenAI list shape', async () => {
    const ids: string[] = [];
    for await (const model of client.models.list()) {
      assert.equal(model.object, 'model');
      assert.equal(typeof model.created, 'number');
      ids.push(model.id);
    }
    assert.deepEqual(ids, ['demo-chat', 'demo-embedding'], 'the text API lists text and embedding models, no image models');
  });

  test('models.retrieve answers one model and 404 for an unknown one', async () => {
    const model = await client.models.retrieve('demo-chat');
    assert.equal(model.id, 'demo-chat');
    await assert.rejects(client.models.retrieve('no-such-model'), (error: unknown) => {
      assert.ok(error instanceof OpenAI.NotFoundError);
      return true;
    });
  });

  test('chat.completions.create (JSON): deterministic reply with honest usage', async () => {
    const request = { model: 'demo-chat', messages: [{ role: 'user' as const, content: 'Tell me about gateways' }] };
    const first = await client.chat.completions.create(request);
    const second = await client.chat.completions.create(request);
    assert.equal(first.object, 'chat.completion');
    assert.equal(first.model, 'demo-chat');
    assert.equal(first.choices.length, 1);
    const text = first.choices[0]!.message.content ?? '';
    assert.match(text, /Tell me about gateways/);
    assert.equal(first.choices[0]!.finish_reason, 'stop');
    assert.equal(second.choices[0]!.message.content, text, 'same prompt, same reply');
    assert.ok(first.usage);
    assert.equal(first.usage.completion_tokens, countTokens(text));
    assert.ok(first.usage.prompt_tokens > 0);
    assert.equal(first.usage.total_tokens, first.usage.prompt_tokens + first.usage.completion_tokens);
  });

  test('chat.completions.create (stream with include_usage): several chunks, then a usage chunk', async () => {
    const messages = [{ role: 'user' as const, content: 'Stream a short answer please' }];
    const json = await client.chat.completions.create({ model: 'demo-chat', messages });
    const stream = await client.chat.completions.create({ model: 'demo-chat', messages, stream: true, stream_options: { include_usage: true } });
    let text = '';
    let contentChunks = 0;
    let finish: string | null = null;
    const usageChunks: OpenAI.CompletionUsage[] = [];
    for await (const chunk of stream) {
      assert.equal(chunk.object, 'chat.completion.chunk');
      if (chunk.usage) {
        assert.deepEqual(chunk.choices, [], 'the usage chunk carries no choices');
        usageChunks.push(chunk.usage);
        continue;
      }
      const delta = chunk.choices[0]?.delta.content;
      if (delta) {
        text += delta;
        contentChunks += 1;
      }
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    assert.ok(contentChunks >= 3, `expected the reply in several chunks, got ${contentChunks}`);
    assert.equal(text, json.choices[0]!.message.content, 'the stream carries the same deterministic reply');
    assert.equal(finish, 'stop');
    assert.equal(usageChunks.length, 1);
    assert.equal(usageChunks[0]!.completion_tokens, countTokens(text));
    assert.equal(usageChunks[0]!.prompt_tokens, json.usage!.prompt_tokens);
  });

  test('chat.completions.create (stream without include_usage): no usage chunk reaches the client', async () => {
    const stream = await client.chat.completions.create({
      model: 'demo-chat',
      messages: [{ role: 'user', content: 'No usage for me' }],
      stream: true,
    });
    let chunks = 0;
    let text = '';
    for await (const chunk of stream) {
      chunks += 1;
      assert.ok(!chunk.usage, `unexpected usage in ${JSON.stringify(chunk)}`);
      assert.equal(chunk.choices.length, 1, 'every chunk carries a choice');
      text += chunk.choices[0]!.delta.content ?? '';
    }
    assert.ok(chunks >= 3);
    assert.match(text, /No usage for me/);
  });

  test('a chat-completions base URL without /v1 gets a 404 that says to add /v1', async () => {
    const noV1 = new OpenAI({ baseURL: gateway.textUrl, apiKey: 'sk-unused', maxRetries: 0 });
    await assert.rejects(noV1.chat.completions.create({ model: 'demo-chat', messages: [{ role: 'user', content: 'hi' }] }), (error: unknown) => {
      assert.ok(error instanceof OpenAI.NotFoundError, String(error));
      assert.match(error.message, /\/v1/);
      assert.ok(error.message.includes(`${gateway.textUrl}/v1`), error.message);
      return true;
    });
  });
});
