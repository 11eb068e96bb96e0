// Usage for every request that reached a provider, however it ended: a client that leaves mid-stream
// or before the answer, an upstream that cuts the stream. Each is counted once, with the tokens the
// upstream reported so far (estimated from the prompt and the relayed text where it reported none),
// and its outcome is kept. The gateway runs in-process on a real loopback listener.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { defaultServeOptions } from '../../server/serve-options.ts';
import { startGateway, type RunningGateway } from '../../server/start.ts';
import { Store } from '../../server/store/store.ts';
import { FakeUpstream, Gate, jsonReply, sseReply } from '../helpers/fake-upstream.ts';
import { waitFor } from '../helpers/wait-for.ts';

const event = (name: string, body: Record<string, unknown>) => `event: ${name}\ndata: ${JSON.stringify({ type: name, ...body })}\n\n`;
const chatChunk = (content: string) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-up', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;

const MESSAGES_HEAD = [
  event('message_start', { message: { id: 'm', type: 'message', role: 'assistant', model: 'claude-up', content: [], stop_reason: null, usage: { input_tokens: 25, output_tokens: 1 } } }),
  event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
  event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Hello wor' } }),
];

describe('usage of requests that ended early', () => {
  let upstream: FakeUpstream;
  let gateway: RunningGateway;
  let dataDir: string;
  let key: string;
  let keyId: string;

  before(async () => {
    upstream = await FakeUpstream.start();
    dataDir = mkdtempSync(join(tmpdir(), 'gwctl-ended-early-'));
    const providers = join(dataDir, 'providers.json');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      providers,
      JSON.stringify({
        providers: [
          { name: 'up-openai', type: 'openai', baseUrl: `${upstream.url}/v1`, retries: 0, timeoutMs: 60_000, models: ['gpt-up'] },
          { name: 'up-anthropic', type: 'anthropic', baseUrl: upstream.url, retries: 0, timeoutMs: 60_000, models: ['claude-up'] },
        ],
      }),
    );
    gateway = await startGateway(
      { ...defaultServeOptions({}), host: '127.0.0.1', port: 0, imagePort: 0, dataDir, databaseUrl: `sqlite://${join(dataDir, 'gateway.db')}`, configFile: providers, rateLimitRpm: 0 },
      { GWCTL_ADMIN_PASSWORD: 'ended-early-admin' },
    );
    const admin = await gateway.deps.store.users.findByName('admin');
    const created = await gateway.deps.store.keys.create(admin!.id, 'ended-early');
    key = created.key;
    keyId = created.id;
  });

  beforeEach(() => upstream.reset());

  after(async () => {
    await gateway?.stop();
    await upstream?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function usage(model: string) {
    await gateway.deps.usage.flush();
    const rows = (await gateway.deps.store.usage.rows({ keyId })).filter((r) => r.model === model);
    const outcomes = (await gateway.deps.store.usage.outcomes({ keyId })).filter((o) => o.model === model);
    const sum = (field: 'requests' | 'inputTokens' | 'outputTokens') => rows.reduce((total, r) => total + r[field], 0);
    return {
      requests: sum('requests'),
      inputTokens: sum('inputTokens'),
      outputTokens: sum('outputTokens'),
      outcomes: Object.fromEntries(outcomes.map((o) => [o.outcome, o.count])),
    };
  }

  /** Starts a streamed request, reads until `until` has arrived, then leaves. */
  async function readThenLeave(path: string, body: unknown, until: string, headers: Record<string, string> = {}): Promise<void> {
    const abort = new AbortController();
    const response = await fetch(`${gateway.textUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, ...headers },
      body: JSON.stringify(body),
      signal: abort.signal,
    });
    assert.equal(response.status, 200);
    const reader = response.body!.getReader();
    let text = '';
    while (!text.includes(until)) {
      const { value, done } = await reader.read();
      assert.ok(!done, `the stream ended before "${until}"`);
      text += Buffer.from(value).toString('utf8');
    }
    abort.abort();
    await reader.cancel().catch(() => undefined);
  }

  test('20 messages streams left mid-way: 20 requests, the reported input tokens, output estimated from the relayed text', async () => {
    const gates: Gate[] = [];
    upstream.handle(() => {
      const gate = new Gate();
      gates.push(gate);
      return sseReply([...MESSAGES_HEAD, { until: gate.promise }]);
    });
    for (let i = 0; i < 20; i += 1) {
      await readThenLeave('/v1/messages', { model: 'claude-up', max_tokens: 50, stream: true, messages: [{ role: 'user', content: 'hi' }] }, 'Hello wor', { 'anthropic-version': '2023-06-01' });
    }
    await waitFor(() => upstream.requests.length === 20 && upstream.requests.every((r) => r.end === 'aborted-by-client'), { timeoutMs: 30_000, what: 'every upstream call to be aborted' });
    for (const gate of gates) gate.open();
    const seen = await waitFor(async () => {
      const u = await usage('claude-up');
      return u.requests === 20 ? u : undefined;
    }, { timeoutMs: 30_000, what: '20 requests in usage' });
    assert.equal(seen.inputTokens, 20 * 25, 'input as the upstream reported it in message_start');
    assert.equal(seen.outputTokens, 20 * Math.ceil('Hello wor'.length / 4), 'output estimated from the text relayed');
    assert.deepEqual(seen.outcomes, { client_aborted: 20 });
  });

  test('a chat stream left mid-way with no usage reported: input estimated from the prompt, output from the relayed text', async () => {
    const gate = new Gate();
    upstream.handle(() => sseReply([chatChunk('Bonjour '), chatChunk('le monde'), { until: gate.promise }]));
    const prompt = 'count my words please, all of them';
    await readThenLeave('/v1/chat/completions', { model: 'gpt-up', stream: true, messages: [{ role: 'user', content: prompt }] }, 'le monde');
    const seen = await waitFor(async () => {
      const u = await usage('gpt-up');
      return u.requests === 1 ? u : undefined;
    }, { timeoutMs: 30_000, what: 'the chat request in usage' });
    gate.open();
    assert.equal(seen.inputTokens, Math.ceil(prompt.length / 4));
    assert.equal(seen.outputTokens, Math.ceil('Bonjour le monde'.length / 4));
    assert.deepEqual(seen.outcomes, { client_aborted: 1 });
  });

  test('an upstream that cuts the stream: counted once with what was reported, outcome upstream_cut', async () => {
    upstream.handle(() => sseReply(MESSAGES_HEAD, { then: 'destroy' }));
    const response = await fetch(`${gateway.textUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'claude-up', max_tokens: 50, stream: true, messages: [{ role: 'user', content: 'cut me' }] }),
    });
    const text = await response.text();
    assert.match(text, /event: error/);
    const before = (await usage('claude-up')).requests;
    const seen = await waitFor(async () => {
      const u = await usage('claude-up');
      return u.outcomes.upstream_cut === 1 ? u : undefined;
    }, { timeoutMs: 30_000, what: 'the cut stream in usage' });
    assert.equal(seen.requests, before);
    assert.equal(seen.outcomes.client_aborted, 20);
  });

  test('a client that leaves before the answer started: counted with the prompt estimate, upstream aborted', async () => {
    const gate = new Gate();
    upstream.handle(async () => {
      await gate.promise;
      return jsonReply(200, { id: 'x', object: 'chat.completion', choices: [] });
    });
    const abort = new AbortController();
    const pending = fetch(`${gateway.textUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ model: 'gpt-up', messages: [{ role: 'user', content: 'waiting for nothing' }] }),
      signal: abort.signal,
    }).catch((error: Error) => error);
    await waitFor(() => upstream.requests.length === 1, { timeoutMs: 30_000, what: 'the upstream call' });
    abort.abort();
    await pending;
    await waitFor(() => upstream.requests[0]!.end === 'aborted-by-client', { timeoutMs: 30_000, what: 'the upstream call to be aborted' });
    gate.open();
    const seen = await waitFor(async () => {
      const u = await usage('gpt-up');
      return u.requests === 2 ? u : undefined;
    }, { timeoutMs: 30_000, what: 'the abandoned request in usage' });
    assert.equal(seen.outcomes.client_aborted, 2);
    assert.equal(seen.inputTokens, Math.ceil('count my words please, all of them'.length / 4) + Math.ceil('waiting for nothing'.length / 4));
  });

  test('streams cut by the shutdown drain bound: each counted, outcome shutdown_cut, flushed before exit', async () => {
    const drainDir = mkdtempSync(join(tmpdir(), 'gwctl-drain-cut-'));
    const providers = join(drainDir, 'providers.json');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(providers, JSON.stringify({ providers: [{ name: 'up-anthropic', type: 'anthropic', baseUrl: upstream.url, retries: 0, timeoutMs: 60_000, models: ['claude-up'] }] }));
    const databaseUrl = `sqlite://${join(drainDir, 'gateway.db')}`;
    const draining = await startGateway(
      { ...defaultServeOptions({}), host: '127.0.0.1', port: 0, imagePort: 0, dataDir: drainDir, databaseUrl, configFile: providers, rateLimitRpm: 0, drainMs: 500 },
      { GWCTL_ADMIN_PASSWORD: 'drain-cut-admin' },
    );
    try {
      const admin = await draining.deps.store.users.findByName('admin');
      const created = await draining.deps.store.keys.create(admin!.id, 'drain');
      const gate = new Gate();
      upstream.handle(() => sseReply([...MESSAGES_HEAD, { until: gate.promise }]));
      const readers = await Promise.all(
        Array.from({ length: 3 }, async () => {
          const response = await fetch(`${draining.textUrl}/v1/messages`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': created.key, 'anthropic-version': '2023-06-01' },
            body: JSON.stringify({ model: 'claude-up', max_tokens: 50, stream: true, messages: [{ role: 'user', content: 'long answer' }] }),
          });
          const reader = response.body!.getReader();
          let text = '';
          while (!text.includes('Hello wor')) text += Buffer.from((await reader.read()).value ?? []).toString('utf8');
          return reader;
        }),
      );
      await draining.stop();
      gate.open();
      for (const reader of readers) await reader.cancel().catch(() => undefined);
      const store = await Store.open(databaseUrl);
      try {
        const rows = await store.usage.rows({ keyId: created.id });
        const outcomes = await store.usage.outcomes({ keyId: created.id });
        assert.equal(rows.reduce((n, r) => n + r.requests, 0), 3);
        assert.equal(rows.reduce((n, r) => n + r.inputTokens, 0), 3 * 25);
        assert.deepEqual(outcomes.map((o) => [o.outcome, o.count]), [['shutdown_cut', 3]]);
      } finally {
        await store.close();
      }
    } finally {
      await draining.stop();
      rmSync(drainDir, { recursive: true, force: true });
    }
  });
});
