// A corpus of answers in the shapes upstreams record (messages with both cache-write classes and
// cache reads, the legacy aggregate cache write, chat with cached and reasoning tokens, Responses,
// Gemini, streams, a cut stream, images), each priced with known prices: the cost recorded with
// the request is exact to the micro-unit, a model without a price records null (never 0), and the
// hourly usage totals equal the sum of the request log's rows.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DemoProvider } from '../../server/providers/demo/demo-provider.ts';
import type { ModelInfo, Operation, Provider, ProviderResponse } from '../../server/providers/provider.ts';
import type { Price } from '../../server/pricing/price.ts';
import { tokensFromChars } from '../../server/usage/estimate-tokens.ts';
import { bearer, createTestGateway, type TestGateway } from '../helpers/test-app.ts';
import { GatewayMetrics } from '../../server/metrics/gateway-metrics.ts';
import { formatMicros } from '../../server/pricing/money.ts';
import { webLogin } from '../helpers/web-login.ts';

/** Answers whatever the test queued, in its type's protocol; `cut` ends the body with an error after the chunks. */
class RecordedProvider implements Provider {
  readonly models: ModelInfo[];
  next: { status?: number; type: string; chunks: string[]; cut?: boolean } | undefined;
  constructor(
    readonly name: string,
    readonly type: string,
    model: string,
    private readonly operations: Operation[],
  ) {
    this.models = [{ id: model, upstreamModel: model, kind: 'text', created: 0 }];
  }
  supports(operation: Operation): boolean {
    return this.operations.includes(operation);
  }
  async send(): Promise<ProviderResponse> {
    const next = this.next!;
    async function* body(): AsyncIterable<Uint8Array> {
      for (const chunk of next.chunks) yield Buffer.from(chunk);
      if (next.cut) throw new Error('upstream connection reset');
    }
    return { status: next.status ?? 200, headers: { 'content-type': next.type }, body: body() };
  }
  async close(): Promise<void> {}
}

const anthropic = new RecordedProvider('anthropic-main', 'anthropic', 'claude-test', ['messages']);
const openai = new RecordedProvider('openai-main', 'openai', 'gpt-test', ['chat', 'responses']);
const gemini = new RecordedProvider('gemini-main', 'gemini', 'gemini-test', ['gemini']);
const unpriced = new RecordedProvider('openai-other', 'openai', 'unpriced-model', ['chat']);

const PRICES: Price[] = [
  { model: 'claude-*', currency: 'USD', per: 1_000_000, input: '3', output: '15', cacheRead: '0.3', cacheWrite5m: '3.75', cacheWrite1h: '6' },
  // A later price for the same model: not in force yet, so it must not apply.
  { model: 'claude-*', currency: 'USD', per: 1_000_000, input: '300', output: '1500', from: '2999-01-01' },
  { model: 'gpt-test', currency: 'USD', per: 1_000_000, input: '1.25', output: '10', cacheRead: '0.125', reasoning: '12' },
  // Narrowed to another provider: the request served by openai-main does not take it.
  { model: 'gpt-test', provider: 'somewhere-else', currency: 'USD', per: 1_000_000, input: '999', output: '999' },
  { model: 'gemini-test', currency: 'USD', per: 1_000_000, input: '0.3', output: '2.5', cacheRead: '0.075' },
  { model: 'demo-image', currency: 'USD', per: 1_000_000, input: '0', output: '0', image: { '1024x1024': '0.04', default: '0.02' }, request: '0.001' },
];

let gw: TestGateway;
let key: string;
let userId: string;
before(async () => {
  gw = await createTestGateway({ providers: [anthropic, openai, gemini, unpriced, new DemoProvider({ chunkDelayMs: 0 })], prices: PRICES, requestLog: true });
  ({ key, userId } = await gw.userWithKey());
  gw.deps.metrics = new GatewayMetrics({ pendingUsageBuckets: () => 0, usageFlushFailures: () => 0, databaseKeyLookups: () => 0, openResponses: () => 0, providersCooling: () => [] });
});
after(() => gw.close());

const JSON_TYPE = 'application/json';
const SSE_TYPE = 'text/event-stream';
const sse = (events: Array<[string | null, unknown]>) => events.map(([event, data]) => `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);

async function lastCost(): Promise<{ costMicros: number | null; costEstimated: boolean; outcome: string | null }> {
  await gw.deps.requestLog!.flush();
  const [row] = await gw.store.requestLog.list({ userId, limit: 1 });
  return { costMicros: row!.costMicros, costEstimated: row!.costEstimated, outcome: row!.outcome };
}

const messagesBody = (stream = false) => ({ model: 'claude-test', max_tokens: 100, stream, messages: [{ role: 'user', content: 'hello' }] });
const message = (usage: unknown) => ({ id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-test', content: [{ type: 'text', text: 'hi' }], stop_reason: 'end_turn', stop_sequence: null, usage });

test('messages: input, output, cache reads and both cache-write classes each at their own price', async () => {
  anthropic.next = {
    type: JSON_TYPE,
    chunks: [JSON.stringify(message({ input_tokens: 1200, output_tokens: 800, cache_read_input_tokens: 50_000, cache_creation_input_tokens: 3000, cache_creation: { ephemeral_5m_input_tokens: 1000, ephemeral_1h_input_tokens: 2000 } }))],
  };
  const res = await gw.text.inject({ method: 'POST', url: '/v1/messages', headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01' }, payload: messagesBody() });
  assert.equal(res.statusCode, 200, res.body);
  // 1200×3 + 800×15 + 50000×0.3 + 1000×3.75 + 2000×6 = 46,350 micro-USD (prices are per million tokens).
  assert.deepEqual(await lastCost(), { costMicros: 46_350, costEstimated: false, outcome: null });
});

test('messages: an aggregate cache write without the split counts as five-minute writes', async () => {
  anthropic.next = { type: JSON_TYPE, chunks: [JSON.stringify(message({ input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 4000 }))] };
  await gw.text.inject({ method: 'POST', url: '/v1/messages', headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01' }, payload: messagesBody() });
  // 10×3 + 5×15 + 4000×3.75
  assert.equal((await lastCost()).costMicros, 15_105);
});

test('messages stream: usage of message_start with the output of message_delta', async () => {
  anthropic.next = {
    type: SSE_TYPE,
    chunks: sse([
      ['message_start', { type: 'message_start', message: { ...message({ input_tokens: 100, output_tokens: 1, cache_read_input_tokens: 2000, cache_creation_input_tokens: 500, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 500 } }), content: [], stop_reason: null } }],
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'hello there' } }],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 300 } }],
      ['message_stop', { type: 'message_stop' }],
    ]),
  };
  const res = await gw.text.inject({ method: 'POST', url: '/v1/messages', headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01' }, payload: messagesBody(true) });
  assert.equal(res.statusCode, 200);
  // 100×3 + 2000×0.3 + 500×6 + 300×15
  assert.deepEqual(await lastCost(), { costMicros: 8_400, costEstimated: false, outcome: null });
});

test('a stream cut early is billed for what was relayed, and marked estimated', async () => {
  const text = 'x'.repeat(400);
  anthropic.next = {
    type: SSE_TYPE,
    cut: true,
    chunks: sse([
      ['message_start', { type: 'message_start', message: { ...message({ input_tokens: 100, output_tokens: 1 }), content: [], stop_reason: null } }],
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }],
    ]),
  };
  await gw.text.inject({ method: 'POST', url: '/v1/messages', headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01' }, payload: messagesBody(true) });
  const cost = await lastCost();
  assert.equal(cost.outcome, 'upstream_cut');
  assert.equal(cost.costEstimated, true);
  // The reported input (100×3) and the relayed text's estimate at the output price.
  assert.equal(cost.costMicros, 100 * 3 + tokensFromChars(text.length) * 15);
});

const chatBody = (stream = false) => ({ model: 'gpt-test', stream, ...(stream ? { stream_options: { include_usage: true } } : {}), messages: [{ role: 'user', content: 'hello' }] });

test('chat: cached prompt tokens at the cache-read price, reasoning tokens at the reasoning price', async () => {
  openai.next = {
    type: JSON_TYPE,
    chunks: [
      JSON.stringify({
        id: 'c1', object: 'chat.completion', created: 1, model: 'gpt-test',
        choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 5000, completion_tokens: 700, total_tokens: 5700, prompt_tokens_details: { cached_tokens: 4000 }, completion_tokens_details: { reasoning_tokens: 500 } },
      }),
    ],
  };
  const res = await gw.text.inject({ method: 'POST', url: '/v1/chat/completions', headers: bearer(key), payload: chatBody() });
  assert.equal(res.statusCode, 200, res.body);
  // 1000×1.25 + 4000×0.125 + 200×10 + 500×12
  assert.equal((await lastCost()).costMicros, 9_750);
});

test('chat stream: the usage chunk prices the stream', async () => {
  const chunk = (delta: unknown, usage: unknown = null) => ({ id: 'c2', object: 'chat.completion.chunk', created: 1, model: 'gpt-test', choices: delta ? [{ index: 0, delta, finish_reason: null }] : [], usage });
  openai.next = { type: SSE_TYPE, chunks: [...sse([[null, chunk({ role: 'assistant', content: 'hi' })], [null, chunk(null, { prompt_tokens: 300, completion_tokens: 20, total_tokens: 320 })]]), 'data: [DONE]\n\n'] };
  await gw.text.inject({ method: 'POST', url: '/v1/chat/completions', headers: bearer(key), payload: chatBody(true) });
  // 300×1.25 + 20×10
  assert.equal((await lastCost()).costMicros, 575);
});

test('Responses: cached input and reasoning apart; half a micro-unit rounds up', async () => {
  openai.next = {
    type: JSON_TYPE,
    chunks: [
      JSON.stringify({
        id: 'resp_1', object: 'response', created_at: 1, status: 'completed', model: 'gpt-test',
        output: [{ type: 'message', id: 'm1', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'hi', annotations: [] }] }],
        usage: { input_tokens: 2000, input_tokens_details: { cached_tokens: 1500 }, output_tokens: 400, output_tokens_details: { reasoning_tokens: 100 }, total_tokens: 2400 },
      }),
    ],
  };
  const res = await gw.text.inject({ method: 'POST', url: '/v1/responses', headers: bearer(key), payload: { model: 'gpt-test', input: 'hello' } });
  assert.equal(res.statusCode, 200, res.body);
  // 500×1.25 + 1500×0.125 + 300×10 + 100×12 = 5012.5
  assert.equal((await lastCost()).costMicros, 5_013);
});

test('Gemini: cached content at the cache-read price, thoughts as output when reasoning has no price of its own', async () => {
  gemini.next = {
    type: JSON_TYPE,
    chunks: [
      JSON.stringify({
        candidates: [{ content: { role: 'model', parts: [{ text: 'hi' }] }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 10_000, cachedContentTokenCount: 8000, candidatesTokenCount: 200, thoughtsTokenCount: 300, totalTokenCount: 10_500 },
        modelVersion: 'gemini-test',
      }),
    ],
  };
  const res = await gw.text.inject({ method: 'POST', url: '/v1beta/models/gemini-test:generateContent', headers: { 'x-goog-api-key': key }, payload: { contents: [{ role: 'user', parts: [{ text: 'hello' }] }] } });
  assert.equal(res.statusCode, 200, res.body);
  // 2000×0.3 + 8000×0.075 + 500×2.5
  assert.equal((await lastCost()).costMicros, 2_450);
});

test('images: a price per image by size, plus the price per request', async () => {
  const res = await gw.image.inject({ method: 'POST', url: '/v1/images/generations', headers: bearer(key), payload: { model: 'demo-image', prompt: 'a cat', n: 2, size: '1024x1024' } });
  assert.equal(res.statusCode, 200, res.body);
  // 2 × 0.04 + 0.001
  assert.equal((await lastCost()).costMicros, 81_000);
});

test('a model without a price records its cost as unknown (null), never 0', async () => {
  unpriced.next = { type: JSON_TYPE, chunks: [JSON.stringify({ id: 'c3', object: 'chat.completion', created: 1, model: 'unpriced-model', choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }], usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 } })] };
  await gw.text.inject({ method: 'POST', url: '/v1/chat/completions', headers: bearer(key), payload: { ...chatBody(), model: 'unpriced-model' } });
  assert.equal((await lastCost()).costMicros, null);
  assert.deepEqual(gw.deps.prices!.unpricedModels(), ['unpriced-model']);
});

test('the hourly usage totals equal the sum of the request log rows, model by model', async () => {
  await gw.deps.usage.flush();
  await gw.deps.requestLog!.flush();
  const log = await gw.store.requestLog.list({ userId, limit: 1000 });
  const usage = await gw.store.usage.rows({ userId });
  const byModel = new Map<string, { micros: number; unknown: number }>();
  for (const row of log) {
    const sum = byModel.get(row.model) ?? { micros: 0, unknown: 0 };
    if (row.costMicros === null) sum.unknown += 1;
    else sum.micros += row.costMicros;
    byModel.set(row.model, sum);
  }
  for (const [model, sum] of byModel) {
    const rows = usage.filter((r) => r.model === model);
    assert.equal(rows.reduce((s, r) => s + r.costMicros, 0), sum.micros, `cost of ${model}`);
    assert.equal(rows.reduce((s, r) => s + r.unpriced, 0), sum.unknown, `unpriced requests of ${model}`);
  }
  assert.equal(byModel.get('claude-test')!.micros, 46_350 + 15_105 + 8_400 + 100 * 3 + tokensFromChars(400) * 15);
});

test('/usage shows the same totals: per model as the request log sums them, and the period total unknown while a request had no price', async () => {
  const login = await webLogin(gw.text, 'user1');
  const page = (await gw.text.inject({ url: '/usage?period=24h', headers: { cookie: login.cookie } })).payload;
  const log = await gw.store.requestLog.list({ userId, limit: 1000 });
  for (const model of ['claude-test', 'gpt-test', 'gemini-test', 'demo-image']) {
    const micros = log.filter((r) => r.model === model).reduce((n, r) => n + r.costMicros!, 0);
    assert.ok(page.includes(`title="${model}">${model}</span></td>`), model);
    assert.match(page.slice(page.indexOf(`title="${model}">`)), new RegExp(`^[^\\n]*?(<td class="num">[^<]*</td>){3}<td class="num">${formatMicros(micros).replace('.', '\\.')} USD</td>`), model);
  }
  assert.match(page.slice(page.indexOf('title="unpriced-model">')), /^[^\n]*?(<td class="num">[^<]*<\/td>){3}<td class="num">unknown \(1 without a price\)<\/td>/);
  assert.match(page, /<span id="period-cost">unknown \(1 without a price\)<\/span>/);
  assert.match(page, /id="chart-cost"/);
  const requests = (await gw.text.inject({ url: '/usage/requests', headers: { cookie: login.cookie } })).payload;
  assert.match(requests, /≈ 0\.\d+ USD \(estimated\)/, 'the cut stream');
  assert.match(requests, />unknown</, 'the unpriced request');
});

test('/metrics: tokens by model and class, cost by model, requests without a price; never a key label', async () => {
  const text = await gw.deps.metrics!.registry.metrics();
  const line = (name: string) => text.split('\n').find((l) => l.startsWith(name))?.split(' ').at(-1);
  assert.equal(line('gwctl_tokens_total{model="claude-test",class="cache_write_1h"}'), String(2000 + 500));
  assert.equal(line('gwctl_tokens_total{model="gpt-test",class="reasoning"}'), String(500 + 100));
  assert.equal(line('gwctl_cost_micros_total{model="gemini-test",currency="USD"}'), '2450');
  assert.equal(line('gwctl_cost_micros_total{model="demo-image",currency="USD"}'), '81000');
  assert.equal(line('gwctl_unpriced_requests_total{model="unpriced-model"}'), '1');
  assert.doesNotMatch(text, /key_?id=/);
});

test('/admin names the models used without a price and says the month total is unknown', async () => {
  await gw.store.users.create('operator', 'password-123', { isAdmin: true });
  const login = await webLogin(gw.text, 'operator');
  const page = (await gw.text.inject({ url: '/admin', headers: { cookie: login.cookie } })).payload;
  assert.match(page, /id="unpriced-models">No price for unpriced-model: the cost of their requests is unknown \(not zero\)/);
  assert.match(page, /<span id="month-cost">unknown \(1 without a price\)<\/span>/);
});
