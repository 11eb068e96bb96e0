// The official `@anthropic-ai/sdk` client against a started gateway on its embedded default:
// messages create and stream with both auth header forms, count_tokens, the model list in the
// messages shape, and the doubled-/v1 base address a messages client gets wrong.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { GatewayProcess, isolateClientEnvironment } from '../helpers/gateway-process.ts';

const countTokens = (text: string) => (text.match(/\s*(?:[\p{L}\p{N}]+|[^\s\p{L}\p{N}])/gu) ?? []).length;

type AuthForm = 'authorization' | 'x-api-key';

describe('@anthropic-ai/sdk against the gateway (demo provider)', () => {
  let gateway: GatewayProcess;
  let key: string;
  let restoreEnv: () => void;
  /** What the SDK really sent, per client: proves each auth form is the one exercised. */
  const sentHeaders: Record<AuthForm, Headers[]> = { authorization: [], 'x-api-key': [] };

  function clientWith(form: AuthForm, baseURL = gateway.textUrl): Anthropic {
    const recordingFetch = (form: AuthForm) => async (input: string | URL | Request, init?: RequestInit) => {
      sentHeaders[form].push(new Headers(init?.headers));
      return fetch(input, init);
    };
    if (form === 'authorization') {
      // The MSGAPI_AUTH_TOKEN route of spec 5.2: a bearer token.
      return new Anthropic({ baseURL, authToken: key, maxRetries: 0, fetch: recordingFetch(form) });
    }
    // In SDK 1.12 `apiKey` is also sent as a bearer token; the x-api-key form goes in a header.
    return new Anthropic({ baseURL, apiKey: null, authToken: null, defaultHeaders: { 'x-api-key': key }, maxRetries: 0, fetch: recordingFetch(form) });
  }

  before(async () => {
    restoreEnv = isolateClientEnvironment();
    gateway = await GatewayProcess.start();
    key = (await gateway.createKey('admin', 'anthropic-sdk')).key;
  });

  after(async () => {
    await gateway?.cleanup();
    restoreEnv?.();
  });

  for (const form of ['authorization', 'x-api-key'] as const) {
    describe(`auth form: ${form}`, () => {
      test('messages.create answers a deterministic message with usage', async () => {
        const client = clientWith(form);
        const before = sentHeaders[form].length;
        const params = { model: 'demo-chat', max_tokens: 200, messages: [{ role: 'user' as const, content: 'Hello from the messages client' }] };
        const message = await client.messages.create(params);
        const again = await client.messages.create(params);
        const sent = sentHeaders[form][before]!;
        if (form === 'authorization') {
          assert.equal(sent.get('authorization'), `Bearer ${key}`);
          assert.equal(sent.get('x-api-key'), null);
        } else {
          assert.equal(sent.get('x-api-key'), key);
          assert.equal(sent.get('authorization'), null);
        }
        assert.equal(message.type, 'message');
        assert.equal(message.role, 'assistant');
        assert.equal(message.model, 'demo-chat');
        assert.equal(message.stop_reason, 'end_turn');
        const block = message.content[0];
        assert.ok(block && block.type === 'text');
        assert.match(block.text, /Hello from the messages client/);
        assert.deepEqual(again.content, message.content, 'same prompt, same reply');
        assert.equal(message.usage.output_tokens, countTokens(block.text));
        assert.ok(message.usage.input_tokens > 0);
      });

      test('messages.stream delivers message_start … message_stop in several deltas', async () => {
        const client = clientWith(form);
        const events: string[] = [];
        let deltas = 0;
        const stream = client.messages.stream({ model: 'demo-chat', max_tokens: 200, messages: [{ role: 'user', content: 'Stream to me' }] });
        stream.on('streamEvent', (event) => {
          events.push(event.type);
          if (event.type === 'content_block_delta') deltas += 1;
        });
        const final = await stream.finalMessage();
        assert.equal(events[0], 'message_start');
        assert.equal(events.at(-1), 'message_stop');
        assert.ok(events.includes('message_delta'));
        assert.ok(deltas >= 3, `expected several deltas, got ${deltas}`);
        const block = final.content[0];
        assert.ok(block && block.type === 'text');
        const json = await client.messages.create({ model: 'demo-chat', max_tokens: 200, messages: [{ role: 'user', content: 'Stream to me' }] });
        assert.deepEqual(final.content, json.content, 'the stream carries the same reply as JSON');
        assert.equal(final.usage.output_tokens, countTokens(block.text));
        assert.equal(final.usage.input_tokens, json.usage.input_tokens);
      });
    });
  }

  test('messages.countTokens counts the prompt', async () => {
    const client = clientWith('x-api-key');
    const counted = await client.messages.countTokens({ model: 'demo-chat', messages: [{ role: 'user', content: 'Count these words please' }] });
    const created = await client.messages.create({ model: 'demo-chat', max_tokens: 50, messages: [{ role: 'user', content: 'Count these words please' }] });
    assert.ok(counted.input_tokens > 0);
    assert.equal(counted.input_tokens, created.usage.input_tokens);
  });

  test('models.list answers in the messages-protocol shape', async () => {
    const client = clientWith('x-api-key');
    const ids: string[] = [];
    for await (const model of client.models.list()) {
      assert.equal(model.type, 'model');
      assert.equal(typeof model.display_name, 'string');
      assert.ok(!Number.isNaN(Date.parse(model.created_at)));
      ids.push(model.id);
    }
    assert.deepEqual(ids, ['demo-chat']);
  });

  test('an unknown key answers 401 AuthenticationError, with the key not echoed', async () => {
    const wrong = `sk-${'x'.repeat(44)}`;
    const client = new Anthropic({ baseURL: gateway.textUrl, apiKey: null, authToken: null, defaultHeaders: { 'x-api-key': wrong }, maxRetries: 0 });
    await assert.rejects(client.messages.create({ model: 'demo-chat', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }), (error: unknown) => {
      assert.ok(error instanceof Anthropic.AuthenticationError, String(error));
      assert.equal((error.error as { type?: string }).type, 'error');
      assert.ok(!JSON.stringify(error.error).includes(wrong), 'the full key must not be echoed');
      return true;
    });
  });

  test('a base address with /v1 (client builds /v1/v1/messages) answers 404 saying to drop /v1', async () => {
    const client = clientWith('x-api-key', `${gateway.textUrl}/v1`);
    await assert.rejects(client.messages.create({ model: 'demo-chat', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }), (error: unknown) => {
      assert.ok(error instanceof Anthropic.NotFoundError, String(error));
      const body = error.error as { type: string; error: { type: string; message: string } };
      assert.equal(body.type, 'error');
      assert.equal(body.error.type, 'not_found_error');
      assert.match(body.error.message, /\/v1 twice/);
      assert.ok(body.error.message.includes(`${gateway.textUrl} (without /v1)`), body.error.message);
      return true;
    });
  });
});
