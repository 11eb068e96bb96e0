// Lifecycle of `gwctl serve`: health on both listeners; SIGTERM while streams are in flight stops
// new connections, lets the streams finish, flushes usage and exits 0; usage (streamed requests
// included) is then readable with `gwctl admin usage`. Also the first start with a chosen password.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { FakeUpstream, Gate, sseReply } from '../helpers/fake-upstream.ts';
import { GatewayProcess, isolateClientEnvironment, parseSse, readResponse, type CreatedKey } from '../helpers/gateway-process.ts';
import { waitFor } from '../helpers/wait-for.ts';

interface UsageRow {
  user: string;
  keyId: string;
  model: string;
  requests: number;
  inputTokens: number;
  outputTokens: number;
  errors: Record<string, number>;
}

const chatChunk = (content: string | null) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-up', choices: [{ index: 0, delta: content === null ? {} : { content }, finish_reason: content === null ? 'stop' : null }] })}\n\n`;
const UPSTREAM_USAGE = { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 };
const usageChunk = `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-up', choices: [], usage: UPSTREAM_USAGE })}\n\n`;
const messagesEvent = (name: string, body: Record<string, unknown>) => `event: ${name}\ndata: ${JSON.stringify({ type: name, ...body })}\n\n`;

describe('graceful shutdown and usage', () => {
  let upstream: FakeUpstream;
  let gateway: GatewayProcess;
  let key: CreatedKey;
  let restoreEnv: () => void;
  /** Usage the clients observed for the demo model, to compare with what the gateway recorded. */
  const demo = { requests: 0, inputTokens: 0, outputTokens: 0 };

  before(async () => {
    restoreEnv = isolateClientEnvironment();
    upstream = await FakeUpstream.start();
    gateway = await GatewayProcess.start({
      drainMs: 30_000,
      providers: {
        providers: [
          { name: 'demo', type: 'demo' },
          { name: 'up-openai', type: 'openai', baseUrl: `${upstream.url}/v1`, timeoutMs: 30_000, models: ['gpt-up'] },
          { name: 'up-anthropic', type: 'anthropic', baseUrl: upstream.url, timeoutMs: 30_000, models: ['claude-up'] },
        ],
      },
    });
    key = await gateway.createKey('admin', 'shutdown');
  });

  after(async () => {
    await gateway?.cleanup();
    await upstream?.close();
    restoreEnv?.();
  });

  test('GET /health answers 200 {"status":"ok"} on both listeners', async () => {
    for (const url of [gateway.textUrl, gateway.imageUrl]) {
      const response = await fetch(`${url}/health`);
      assert.equal(response.status, 200);
      assert.deepEqual(await response.json(), { status: 'ok' });
    }
  });

  test('demo traffic, JSON and streamed in both protocols (usage checked after shutdown)', async () => {
    const openai = new OpenAI({ baseURL: `${gateway.textUrl}/v1`, apiKey: key.key, maxRetries: 0 });
    const messages = [{ role: 'user' as const, content: 'count my usage' }];
    const json = await openai.chat.completions.create({ model: 'demo-chat', messages });
    // Streamed without include_usage: the client sees no usage, the gateway still counts it. The demo
    // model is deterministic, so this request costs exactly what the JSON one did.
    const stream = await openai.chat.completions.create({ model: 'demo-chat', messages, stream: true });
    let streamed = '';
    for await (const part of stream) streamed += part.choices[0]?.delta.content ?? '';
    assert.equal(streamed, json.choices[0]!.message.content);
    const anthropic = new Anthropic({ baseURL: gateway.textUrl, authToken: key.key, maxRetries: 0 });
    const final = await anthropic.messages.stream({ model: 'demo-chat', max_tokens: 300, messages: [{ role: 'user', content: 'count my streamed usage' }] }).finalMessage();
    demo.requests = 3;
    demo.inputTokens = 2 * json.usage!.prompt_tokens + final.usage.input_tokens;
    demo.outputTokens = 2 * json.usage!.completion_tokens + final.usage.output_tokens;
    assert.ok(demo.inputTokens > 0 && demo.outputTokens > 0);
  });

  test('SIGTERM while streams are in flight: no new connections, the streams complete, exit code 0', async () => {
    const chatGate = new Gate();
    const messagesGate = new Gate();
    const chatTail = [chatChunk(' and the rest'), chatChunk(null), usageChunk, 'data: [DONE]\n\n'];
    const messagesHead = messagesEvent('message_start', { message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-up', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 13, output_tokens: 1 } } });
    const messagesTail = [
      messagesEvent('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
      messagesEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'done in time' } }),
      messagesEvent('content_block_stop', { index: 0 }),
      messagesEvent('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 5 } }),
      messagesEvent('message_stop', {}),
    ];
    upstream.handle((request) =>
      request.path.startsWith('/v1/chat/completions')
        ? sseReply([chatChunk('first part'), { until: chatGate.promise }, ...chatTail])
        : sseReply([messagesHead, { until: messagesGate.promise }, ...messagesTail]),
    );

    const chatResponse = await fetch(`${gateway.textUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key.key}` },
      body: JSON.stringify({ model: 'gpt-up', stream: true, messages: [{ role: 'user', content: 'long answer' }] }),
    });
    const messagesResponse = await fetch(`${gateway.textUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key.key, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'claude-up', max_tokens: 50, stream: true, messages: [{ role: 'user', content: 'long answer' }] }),
    });
    assert.equal(chatResponse.status, 200);
    assert.equal(messagesResponse.status, 200);
    const chatReader = chatResponse.body!.getReader();
    const first = await chatReader.read();
    assert.ok(!first.done && Buffer.from(first.value).toString().includes('first part'));

    // Signal the gateway while both streams wait on their upstream.
    gateway.signal('SIGTERM');
    await waitFor(() => /Received SIGTERM/.test(gateway.stderr), { what: 'the gateway to acknowledge SIGTERM' });
    await waitFor(
      async () => {
        try {
          const probe = await fetch(`${gateway.textUrl}/health`, { headers: { connection: 'close' } });
          await probe.arrayBuffer();
          return probe.status === 503;
        } catch {
          return true; // connection refused: the listener is closed
        }
      },
      { what: 'the gateway to stop taking new requests' },
    );
    assert.equal(gateway.exitInfo, undefined, 'the gateway waits for the streams in flight');

    chatGate.open();
    messagesGate.open();
    const chatRest: Buffer[] = [Buffer.from(first.value)];
    for (;;) {
      const { value, done } = await chatReader.read();
      if (done) break;
      chatRest.push(Buffer.from(value));
    }
    const chatText = Buffer.concat(chatRest).toString('utf8');
    // The client did not ask for usage: the gateway asked upstream and hides that chunk.
    assert.equal(chatText, chatChunk('first part') + chatTail.filter((c) => c !== usageChunk).join(''));
    const messagesText = (await readResponse(messagesResponse)).text;
    assert.equal(messagesText, messagesHead + messagesTail.join(''));
    assert.equal(parseSse(messagesText).at(-1)!.event, 'message_stop');

    const exit = await gateway.stop();
    assert.deepEqual(exit, { code: 0, signal: null }, gateway.stderr);
    assert.match(gateway.stderr, /Gateway stopped/);
  });

  test('usage flushed at shutdown: per key and model, streamed requests included, exact token counts', async () => {
    assert.ok(gateway.exitInfo, 'runs after the gateway has exited');
    const report = await gateway.adminJson<{ rows: UsageRow[] }>(['usage']);
    const row = (model: string) => {
      const found = report.rows.filter((r) => r.model === model);
      assert.equal(found.length, 1, `one row for ${model}: ${JSON.stringify(report.rows)}`);
      assert.equal(found[0]!.keyId, key.id);
      assert.equal(found[0]!.user, 'admin');
      return found[0]!;
    };
    assert.deepEqual(
      { ...row('gpt-up'), errors: undefined, outcomes: undefined, requestedAs: undefined },
      // No price table here: cost is unknown (null), never 0.
      { user: 'admin', keyId: key.id, model: 'gpt-up', requests: 1, inputTokens: 11, outputTokens: 7, errors: undefined, outcomes: undefined, requestedAs: undefined, cost: null, costMicros: null, currency: null, unpricedRequests: 1, estimatedRequests: 0 },
    );
    assert.deepEqual(row('gpt-up').errors, {});
    assert.deepEqual((row('gpt-up') as UsageRow & { outcomes: Record<string, number> }).outcomes, {}, 'every stream completed: nothing ended early');
    const claude = row('claude-up');
    assert.equal(claude.requests, 1);
    assert.equal(claude.inputTokens, 13);
    assert.equal(claude.outputTokens, 5);
    const demoRow = row('demo-chat');
    assert.deepEqual(
      { requests: demoRow.requests, inputTokens: demoRow.inputTokens, outputTokens: demoRow.outputTokens },
      { requests: demo.requests, inputTokens: demo.inputTokens, outputTokens: demo.outputTokens },
    );
  });
});

describe('first start', () => {
  let gateway: GatewayProcess | undefined;
  after(() => gateway?.cleanup());

  test('GWCTL_ADMIN_PASSWORD chooses the admin password: serve starts, prints none, and SIGINT exits 0', async () => {
    gateway = await GatewayProcess.start({ adminPassword: 'chosen-admin-password-1' });
    await waitFor(() => /First start/.test(gateway!.stderr), { what: 'the first-start notice on stderr' });
    assert.match(gateway.stderr, /password from GWCTL_ADMIN_PASSWORD/);
    assert.ok(!/shown once/.test(gateway.stderr));
    const exit = await gateway.stop('SIGINT');
    assert.deepEqual(exit, { code: 0, signal: null }, gateway.stderr);
  });
});
