// What a real coding client sends, against a recording upstream of each protocol: bodies are an open
// format (mid-conversation system entries, unknown fields and block types pass byte for byte), every
// anthropic-* header reaches a messages upstream, the response headers clients act on come back,
// permanent failures say x-should-retry: false, and usage is attributed to the client's session.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { FakeUpstream, jsonReply } from '../helpers/fake-upstream.ts';
import { GatewayProcess, isolateClientEnvironment, readResponse } from '../helpers/gateway-process.ts';
import { waitFor } from '../helpers/wait-for.ts';

const UPSTREAM_KEY = 'upstream-open-format-secret';

/** The shape the real client sends today (recorded on loopback), with its newer parts. */
function codingClientBody(model: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    model,
    max_tokens: 32000,
    stream: false,
    system: [{ type: 'text', text: 'x-client-attribution: v=1;' }, { type: 'text', text: 'You help with code.', cache_control: { type: 'ephemeral', ttl: '1h', scope: 'global' } }],
    messages: [
      { role: 'user', content: [{ type: 'text', text: '<reminder>context</reminder>' }, { type: 'text', text: 'say pong', cache_control: { type: 'ephemeral' } }] },
      { role: 'system', content: 'Available agent types: general, explore.' },
    ],
    thinking: { type: 'adaptive' },
    context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
    output_config: { effort: 'high' },
    metadata: { user_id: '{"device_id":"d1","session_id":"s1"}' },
    ...extra,
  });
}

const messageAnswer = { id: 'msg_up', type: 'message', role: 'assistant', model: 'claude-open', content: [{ type: 'text', text: 'pong' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 12, output_tokens: 3 } };
const chatAnswer = { id: 'chatcmpl-up', object: 'chat.completion', created: 1, model: 'chat-model', choices: [{ index: 0, message: { role: 'assistant', content: 'pong' }, finish_reason: 'stop' }], usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 } };

describe('open request format and the headers real clients rely on', () => {
  let upstream: FakeUpstream;
  let gateway: GatewayProcess;
  let key: string;
  let restoreEnv: () => void;

  before(async () => {
    restoreEnv = isolateClientEnvironment();
    upstream = await FakeUpstream.start();
    gateway = await GatewayProcess.start({
      providers: {
        providers: [
          { name: 'demo', type: 'demo' },
          { name: 'up-messages', type: 'anthropic', baseUrl: upstream.url, apiKeyEnv: 'E2E_OPEN_UPSTREAM_KEY', retries: 0, timeoutMs: 20_000, models: ['claude-open'] },
          {
            name: 'up-chat',
            type: 'openai',
            baseUrl: `${upstream.url}/v1`,
            apiKeyEnv: 'E2E_OPEN_UPSTREAM_KEY',
            retries: 0,
            timeoutMs: 20_000,
            models: ['gpt-open', { name: 'claude-via-chat', upstreamModel: 'chat-model' }],
          },
        ],
      },
      env: { E2E_OPEN_UPSTREAM_KEY: UPSTREAM_KEY },
    });
    key = (await gateway.createKey('admin', 'open-format')).key;
  });

  beforeEach(() => upstream.reset());

  after(async () => {
    await gateway?.cleanup();
    await upstream?.close();
    restoreEnv?.();
  });

  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${gateway.textUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, ...headers }, body });

  const messagesHeaders = {
    'anthropic-version': '2023-06-01',
    'anthropic-beta': 'claude-code-20250219,mid-conversation-system-2026-04-07',
    'anthropic-workspace-id': 'wrkspc_open',
    'anthropic-header-not-invented-yet': 'as sent',
    'x-claude-code-session-id': 'sess-open-0001',
  };

  test('messages upstream: the body with mid-conversation system, unknown fields and blocks arrives byte for byte, with every anthropic-* header', async () => {
    const body = codingClientBody('claude-open', {
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'say pong' }, { type: 'block_from_the_future', payload: { x: 1 } }] },
        { role: 'system', content: [{ type: 'text', text: 'mid-conversation instructions' }] },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: 'again' },
      ],
      tools: [{ name: 'Read', description: 'read', input_schema: { type: 'object' }, strict: true, defer_loading: true }],
      field_from_the_future: { enabled: true },
    });
    upstream.handle(() => jsonReply(200, messageAnswer, { 'request-id': 'req_upstream_77', 'anthropic-ratelimit-tokens-remaining': '99000', 'x-should-retry': 'true' }));
    const response = await post('/v1/messages?beta=true', body, messagesHeaders);
    const read = await readResponse(response);
    assert.equal(read.status, 200, read.text);
    const seen = upstream.last();
    assert.equal(seen.path, '/v1/messages?beta=true');
    assert.ok(seen.body.equals(Buffer.from(body)), 'the upstream got the client bytes unchanged');
    for (const name of ['anthropic-version', 'anthropic-beta', 'anthropic-workspace-id', 'anthropic-header-not-invented-yet']) {
      assert.equal(seen.headers[name], messagesHeaders[name as keyof typeof messagesHeaders], name);
    }
    assert.equal(seen.headers['x-api-key'], UPSTREAM_KEY);
    assert.equal(response.headers.get('request-id'), 'req_upstream_77', "the upstream's request id under its own name");
    assert.match(response.headers.get('x-request-id') ?? '', /^req_/, "the gateway's own id stays in x-request-id");
    assert.notEqual(response.headers.get('x-request-id'), 'req_upstream_77');
    assert.equal(response.headers.get('anthropic-ratelimit-tokens-remaining'), '99000');
    assert.equal(response.headers.get('x-should-retry'), 'true');
  });

  test('count_tokens takes the same open body and headers', async () => {
    const body = codingClientBody('claude-open', { max_tokens: undefined, stream: undefined });
    upstream.handle(() => jsonReply(200, { input_tokens: 321 }));
    const response = await post('/v1/messages/count_tokens?beta=true', body, messagesHeaders);
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { input_tokens: 321 });
    assert.ok(upstream.last().body.equals(Buffer.from(body)));
    assert.equal(upstream.last().headers['anthropic-workspace-id'], 'wrkspc_open');
  });

  test("an upstream refusal comes back in the upstream's own words with retry-after, x-should-retry and rate-limit headers", async () => {
    const refusal = { type: 'error', error: { type: 'rate_limit_error', message: 'This request would exceed your organization rate limit of 30,000 input tokens per minute.' }, request_id: 'req_upstream_429' };
    upstream.handle(() =>
      jsonReply(429, refusal, { 'retry-after': '30', 'x-should-retry': 'false', 'request-id': 'req_upstream_429', 'anthropic-ratelimit-unified-status': 'rejected', 'anthropic-ratelimit-unified-reset': '1767225600' }),
    );
    const response = await post('/v1/messages', codingClientBody('claude-open'), messagesHeaders);
    const read = await readResponse(response);
    assert.equal(read.status, 429);
    assert.deepEqual(JSON.parse(read.text), refusal);
    assert.equal(response.headers.get('retry-after'), '30');
    assert.equal(response.headers.get('x-should-retry'), 'false');
    assert.equal(response.headers.get('request-id'), 'req_upstream_429');
    assert.equal(response.headers.get('anthropic-ratelimit-unified-status'), 'rejected');
    assert.equal(response.headers.get('anthropic-ratelimit-unified-reset'), '1767225600');
  });

  test("an upstream's invalid_request wording about an unknown field reaches the client unchanged (its recovery matches on it)", async () => {
    const refusal = { type: 'error', error: { type: 'invalid_request_error', message: 'thinking.type: Input tag \'adaptive\' found using \'type\' does not match any of the expected tags' } };
    upstream.handle(() => jsonReply(400, refusal));
    const response = await post('/v1/messages', codingClientBody('claude-open'), messagesHeaders);
    assert.equal(response.status, 400);
    assert.deepEqual(await response.json(), refusal);
  });

  test('permanent failures say x-should-retry: false: unknown key, malformed header, and the provider refusing the gateway credential', async () => {
    const unknown = await fetch(`${gateway.textUrl}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer sk-${'x'.repeat(48)}`, 'anthropic-version': '2023-06-01' }, body: codingClientBody('claude-open') });
    assert.equal(unknown.status, 401);
    assert.equal(unknown.headers.get('x-should-retry'), 'false');
    assert.equal((await unknown.json()).type, 'error');

    const missing = await fetch(`${gateway.textUrl}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"model":"gpt-open","messages":[]}' });
    assert.equal(missing.status, 401);
    assert.equal(missing.headers.get('x-should-retry'), 'false');
    await missing.arrayBuffer();

    upstream.handle(() => jsonReply(401, { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } }));
    const providerRefused = await post('/v1/messages', codingClientBody('claude-open'), messagesHeaders);
    assert.equal(providerRefused.status, 502);
    assert.equal(providerRefused.headers.get('x-should-retry'), 'false');
    assert.match((await providerRefused.json()).error.message, /refused the gateway's credentials/);
  });

  test('translation to a chat upstream: a mid-conversation system entry stays in place as a system message', async () => {
    upstream.handle(() => jsonReply(200, chatAnswer));
    const response = await post('/v1/messages?beta=true', codingClientBody('claude-via-chat', { thinking: undefined, output_config: undefined }), messagesHeaders);
    const read = await readResponse(response);
    assert.equal(read.status, 200, read.text);
    assert.equal(JSON.parse(read.text).content[0].text, 'pong');
    const sent = upstream.last().json();
    assert.equal(upstream.last().path, '/v1/chat/completions');
    assert.deepEqual(
      sent.messages.map((m: { role: string }) => m.role),
      ['system', 'user', 'system'],
    );
    assert.equal(sent.messages[2].content, 'Available agent types: general, explore.');
    assert.equal(sent.model, 'chat-model');
    assert.equal(upstream.last().headers['anthropic-workspace-id'], undefined, 'protocol headers stay with their protocol');
  });

  test('translation to a chat upstream: an unknown block type is a 400 that names the field, and nothing is sent', async () => {
    const body = codingClientBody('claude-via-chat', { thinking: undefined, output_config: undefined, messages: [{ role: 'user', content: [{ type: 'block_from_the_future' }] }] });
    const response = await post('/v1/messages', body, messagesHeaders);
    assert.equal(response.status, 400);
    const error = await response.json();
    assert.equal(error.type, 'error');
    assert.match(error.error.message, /messages\[0\]\.content\[0\]\.type/);
    assert.equal(upstream.requests.length, 0);
  });

  test('chat-completions: developer role, new fields and part types reach a chat upstream byte for byte', async () => {
    const body = JSON.stringify({
      model: 'gpt-open',
      messages: [
        { role: 'developer', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'part_from_the_future', data: 1 }] },
      ],
      temperature: 7,
      verbosity: 'low',
      n: 3,
      prediction: { type: 'content', content: 'x' },
    });
    upstream.handle(() => jsonReply(200, chatAnswer, { 'x-request-id': 'up-chat-req-9', 'x-ratelimit-remaining-tokens': '123' }));
    const response = await post('/v1/chat/completions', body);
    const read = await readResponse(response);
    assert.equal(read.status, 200, read.text);
    assert.ok(upstream.last().body.equals(Buffer.from(body)));
    assert.equal(response.headers.get('x-upstream-request-id'), 'up-chat-req-9');
    assert.equal(response.headers.get('x-ratelimit-remaining-tokens'), '123');
    assert.match(response.headers.get('x-request-id') ?? '', /^req_/);
  });

  test('the demo provider answers what the real client sends, replying to what the person typed', async () => {
    const response = await post('/v1/messages?beta=true', codingClientBody('demo-chat'), messagesHeaders);
    const read = await readResponse(response);
    assert.equal(read.status, 200, read.text);
    assert.match(JSON.parse(read.text).content[0].text, /^Demo reply to "say pong"\./);
  });

  test('usage is attributed to the client session (admin usage --by session); no body content is stored', async () => {
    const session = 'sess-attrib-0002';
    for (let i = 0; i < 3; i += 1) {
      const response = await post('/v1/messages', codingClientBody('demo-chat'), { ...messagesHeaders, 'x-claude-code-session-id': session });
      assert.equal(response.status, 200);
      await response.arrayBuffer();
    }
    type SessionRow = { sessionId: string; user: string; model: string; requests: number; inputTokens: number; outputTokens: number };
    const report = await waitFor(
      async () => {
        const doc = await gateway.adminJson<{ by: string; rows: SessionRow[] }>(['usage', '--by', 'session']);
        return doc.rows.find((r) => r.sessionId === session) ? doc : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 500, what: 'the session usage to be flushed' },
    );
    assert.equal(report.by, 'session');
    const row = report.rows.find((r) => r.sessionId === session)!;
    assert.equal(row.user, 'admin');
    assert.equal(row.model, 'demo-chat');
    assert.equal(row.requests, 3);
    assert.ok(row.inputTokens > 0 && row.outputTokens > 0);
    const text = await gateway.admin(['usage', '--by', 'session']);
    assert.equal(text.code, 0);
    assert.match(text.stdout, new RegExp(session));
    assert.ok(!text.stdout.includes('say pong'));
  });
});
