// The three cloud provider types inside the gateway (app.inject), each pointed at its fake: every
// client protocol (chat completions, messages, Responses, Gemini), JSON and stream, reaches Claude on
// Bedrock, another Bedrock model through Converse, Claude and Gemini on Vertex, and GPT on Azure; usage is read from each answer; refused
// credentials, AWS errors and Vertex token refusals come back with the right status and message.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseGatewayConfig } from '../../../../server/config/gateway-file.ts';
import { buildProviders } from '../../../../server/providers/model-router.ts';
import { FakeAzure } from '../../../helpers/cloud/fake-azure.ts';
import { FakeBedrock } from '../../../helpers/cloud/fake-bedrock.ts';
import { FakeVertex } from '../../../helpers/cloud/fake-vertex.ts';
import { embeddingFor, estimateTokens } from '../../../helpers/fake-gemini-answers.ts';
import { makeServiceAccount } from '../../../helpers/cloud/service-account.ts';
import { bearer, createTestGateway, type TestGateway } from '../../../helpers/test-app.ts';

// Temporary credentials: the session token is signed along (x-amz-security-token).
const CREDENTIALS = { accessKeyId: 'ASIAGATEWAYTEST', secretAccessKey: 'gateway-secret-for-tests', sessionToken: 'gateway-session-token-for-tests' };
const ENV = { AWS_KEY_ID: CREDENTIALS.accessKeyId, AWS_SECRET: CREDENTIALS.secretAccessKey, AWS_SESSION: CREDENTIALS.sessionToken, AZURE_KEY: 'azure-key-for-tests' } as Record<string, string>;

const MODELS = {
  'claude-bedrock': 'Hello from Claude on Bedrock',
  'nova-bedrock': 'Hello from Nova on Bedrock',
  'claude-vertex': 'Hello from Claude on Vertex',
  'gemini-vertex': 'Hello from Gemini on Vertex',
  'gpt-azure': 'Hello from GPT on Azure',
} as const;
type Model = keyof typeof MODELS;

function sseData(text: string): any[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
    .map((line) => JSON.parse(line.slice(6)));
}

describe('bedrock, vertex and azure providers serve every client protocol', { timeout: 120_000 }, () => {
  let bedrock: FakeBedrock;
  let vertex: FakeVertex;
  let azure: FakeAzure;
  let gateway: TestGateway;
  let key: string;
  let userId: string;
  let dir: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gwctl-cloud-'));
    bedrock = await FakeBedrock.start({ region: 'us-east-1', credentials: CREDENTIALS });
    vertex = await FakeVertex.start({ project: 'test-project', region: 'us-east5' });
    azure = await FakeAzure.start({ apiKey: ENV.AZURE_KEY!, accessToken: 'entra-token-for-tests', deployments: ['gpt-4o-prod', 'embed-prod'] });
    ENV.AZURE_TOKEN = 'entra-token-for-tests';
    const account = makeServiceAccount('test-project', vertex.tokenUri);
    vertex.trustAccount(account);
    ENV.VERTEX_SA = account.writeTo(dir);
    const config = parseGatewayConfig('providers.yaml', {
      providers: [
        { name: 'aws', type: 'bedrock', region: 'us-east-1', baseUrl: bedrock.url, accessKeyIdEnv: 'AWS_KEY_ID', secretAccessKeyEnv: 'AWS_SECRET', sessionTokenEnv: 'AWS_SESSION', retries: 0, models: [
          { name: 'claude-bedrock', upstreamModel: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0' },
          { name: 'nova-bedrock', upstreamModel: 'us.amazon.nova-pro-v1:0' },
          { name: 'titan-embed', upstreamModel: 'amazon.titan-embed-text-v2:0', kind: 'embedding' },
          { name: 'cohere-embed', upstreamModel: 'cohere.embed-english-v3', kind: 'embedding' },
          { name: 'cohere-embed-4', upstreamModel: 'cohere.embed-v4:0', kind: 'embedding' },
        ] },
        { name: 'gcp', type: 'vertex', project: 'test-project', region: 'us-east5', baseUrl: vertex.url, credentialsFileEnv: 'VERTEX_SA', retries: 0, models: [
          { name: 'claude-vertex', upstreamModel: 'claude-sonnet-4-5@20250929' },
          { name: 'gemini-vertex', upstreamModel: 'gemini-2.5-flash' },
          { name: 'embed-vertex', upstreamModel: 'text-embedding-005', kind: 'embedding' },
          { name: 'embed-vertex-001', upstreamModel: 'gemini-embedding-001', kind: 'embedding' },
          { name: 'embed-vertex-2', upstreamModel: 'gemini-embedding-2-preview', kind: 'embedding' },
        ] },
        { name: 'az', type: 'azure', baseUrl: azure.url, apiKeyEnv: 'AZURE_KEY', retries: 0, models: [{ name: 'gpt-azure', upstreamModel: 'gpt-4o-prod' }, { name: 'embed-azure', upstreamModel: 'embed-prod', kind: 'embedding' }] },
        { name: 'az-legacy', type: 'azure', baseUrl: azure.url, accessTokenEnv: 'AZURE_TOKEN', apiVersion: '2024-10-21', retries: 0, models: [{ name: 'gpt-azure-legacy', upstreamModel: 'gpt-4o-prod' }, { name: 'embed-azure-legacy', upstreamModel: 'embed-prod', kind: 'embedding' }] },
      ],
    });
    gateway = await createTestGateway({ providers: buildProviders(config.providers, ENV), requestLog: true });
    ({ key, userId } = await gateway.userWithKey());
  });
  after(async () => {
    await gateway.close();
    await Promise.all([bedrock.close(), vertex.close(), azure.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    gateway.text.inject({ method: 'POST', url, headers: { ...bearer(key), 'content-type': 'application/json', ...headers }, payload: JSON.stringify(payload) });

  test('Azure: legacy deployment paths with an Entra ID token, the v1 API with the key, embeddings on both', async () => {
    const chat = await post('/v1/chat/completions', { model: 'gpt-azure-legacy', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(chat.statusCode, 200, chat.body);
    const legacy = azure.requests.at(-1)!;
    assert.equal(legacy.path, '/openai/deployments/gpt-4o-prod/chat/completions?api-version=2024-10-21');
    assert.equal(legacy.headers.authorization, 'Bearer entra-token-for-tests');
    assert.equal(legacy.headers['api-key'], undefined);
    const responses = await post('/v1/responses', { model: 'gpt-azure-legacy', input: 'hi' });
    assert.equal(responses.statusCode, 200, responses.body);
    assert.equal(azure.requests.at(-1)!.path, '/openai/responses?api-version=2024-10-21');
    assert.equal(azure.requests.at(-1)!.body.model, 'gpt-4o-prod');
    for (const [model, path] of [['embed-azure', '/openai/v1/embeddings'], ['embed-azure-legacy', '/openai/deployments/embed-prod/embeddings?api-version=2024-10-21']] as const) {
      const embedded = await post('/v1/embeddings', { model, input: 'hi' });
      assert.equal(embedded.statusCode, 200, embedded.body);
      assert.deepEqual(embedded.json().data[0].embedding, [0.6, 0.8]);
      assert.equal(azure.requests.at(-1)!.path, path);
    }
    assert.equal((await post('/v1/chat/completions', { model: 'gpt-azure', messages: [{ role: 'user', content: 'hi' }] })).statusCode, 200);
    const v1 = azure.requests.at(-1)!;
    assert.equal(v1.path, '/openai/v1/chat/completions');
    assert.equal(v1.body.model, 'gpt-4o-prod');
    assert.equal(v1.headers['api-key'], ENV.AZURE_KEY);
  });

  test('Vertex embeddings: OpenAI clients and Gemini clients; :predict one text a call for gemini-embedding-001, up to 250 for the others, split by size; :embedContent for newer models; Vertex\'s token counts recorded', async () => {
    const texts = ['alpha', 'beta gamma', 'delta epsilon zeta'];
    vertex.reset();
    const fanned = await post('/v1/embeddings', { model: 'embed-vertex-001', input: texts, dimensions: 4, encoding_format: 'float' });
    assert.equal(fanned.statusCode, 200, fanned.body);
    assert.deepEqual(fanned.json().data.map((d: any) => d.embedding), texts.map((t) => embeddingFor(t, 4)), 'in input order');
    assert.deepEqual(vertex.requests.map((r) => r.path.replace(/^.*\/models\//, '')), ['gemini-embedding-001:predict', 'gemini-embedding-001:predict', 'gemini-embedding-001:predict']);
    assert.deepEqual(vertex.requests.map((r) => r.body.instances.map((i: any) => i.content)).sort(), texts.map((t) => [t]).sort());
    assert.ok(vertex.requests.every((r) => r.body.parameters.outputDimensionality === 4));
    const tokens = texts.reduce((n, t) => n + estimateTokens(t), 0);
    assert.deepEqual(fanned.json().usage, { prompt_tokens: tokens, total_tokens: tokens }, 'Vertex\'s counts, not an estimate');

    vertex.reset();
    const many = Array.from({ length: 260 }, (_, i) => `text ${i}`);
    const batched = await post('/v1/embeddings', { model: 'embed-vertex', input: many, encoding_format: 'float' });
    assert.equal(batched.statusCode, 200, batched.body);
    assert.deepEqual(vertex.requests.map((r) => r.body.instances.length), [250, 10]);
    assert.deepEqual(batched.json().data[259].embedding, embeddingFor('text 259', 8));

    vertex.reset();
    const gemini = await post('/v1beta/models/embed-vertex:batchEmbedContents', {
      requests: [
        { model: 'models/embed-vertex', content: { parts: [{ text: 'a' }] }, outputDimensionality: 4, taskType: 'RETRIEVAL_QUERY' },
        { model: 'models/embed-vertex', content: { parts: [{ text: 'b' }] }, outputDimensionality: 4 },
        { model: 'models/embed-vertex', content: { parts: [{ text: 'c' }] }, outputDimensionality: 2 },
      ],
    });
    assert.equal(gemini.statusCode, 200, gemini.body);
    assert.deepEqual(gemini.json().embeddings.map((e: any) => e.values), [embeddingFor('a', 4), embeddingFor('b', 4), embeddingFor('c', 2)]);
    assert.deepEqual(vertex.requests.map((r) => r.body), [
      { instances: [{ content: 'a', task_type: 'RETRIEVAL_QUERY' }, { content: 'b' }], parameters: { outputDimensionality: 4 } },
      { instances: [{ content: 'c' }], parameters: { outputDimensionality: 2 } },
    ]);

    vertex.reset();
    const newer = await post('/v1beta/models/embed-vertex-2:embedContent', { content: { parts: [{ text: 'alpha' }] }, outputDimensionality: 4 });
    assert.equal(newer.statusCode, 200, newer.body);
    assert.deepEqual(newer.json().embedding.values, embeddingFor('alpha', 4));
    assert.deepEqual(vertex.requests.map((r) => [r.method, r.body]), [['embedContent', { content: { parts: [{ text: 'alpha' }] }, embedContentConfig: { outputDimensionality: 4 } }]]);

    const image = await post('/v1beta/models/embed-vertex:embedContent', { content: { parts: [{ inlineData: { mimeType: 'image/png', data: 'AAAA' } }] } });
    assert.equal(image.statusCode, 400, image.body);
    assert.match(image.json().error.message, /content\.parts\[0\]: the embedding model takes text parts only/);

    await gateway.deps.requestLog!.flush();
    const rows = await gateway.store.requestLog.list({ userId, limit: 20 });
    const recorded = rows.find((r) => r.model === 'embed-vertex-001')!;
    assert.equal(recorded.inputTokens, tokens, 'the request log has Vertex\'s token counts');
  });

  test('Bedrock embeddings: Titan one text a call with its token count, Cohere up to 96 texts a call (v4 vectors by type), OpenAI and Gemini clients, refusals by field', async () => {
    const texts = ['alpha', 'beta gamma', 'delta epsilon zeta'];
    const tokens = texts.reduce((n, t) => n + estimateTokens(t), 0);
    bedrock.reset();
    const titan = await post('/v1/embeddings', { model: 'titan-embed', input: texts, dimensions: 256, encoding_format: 'float' });
    assert.equal(titan.statusCode, 200, titan.body);
    assert.deepEqual(titan.json().data.map((d: any) => d.embedding), texts.map((t) => embeddingFor(t, 256)));
    assert.deepEqual(titan.json().usage, { prompt_tokens: tokens, total_tokens: tokens });
    assert.deepEqual(bedrock.requests.map((r) => [r.path, r.body.inputText, r.body.dimensions]).sort(), texts.map((t) => ['/model/amazon.titan-embed-text-v2%3A0/invoke', t, 256]).sort());

    bedrock.reset();
    const many = Array.from({ length: 100 }, (_, i) => `text ${i}`);
    const cohere = await post('/v1/embeddings', { model: 'cohere-embed', input: many, encoding_format: 'base64' });
    assert.equal(cohere.statusCode, 200, cohere.body);
    assert.deepEqual(bedrock.requests.map((r) => [r.body.texts.length, r.body.input_type]), [[96, 'search_document'], [4, 'search_document']]);
    const last = Buffer.from(cohere.json().data[99].embedding, 'base64');
    assert.deepEqual(Array.from({ length: 8 }, (_, i) => last.readFloatLE(i * 4)), embeddingFor('text 99', 8).map((v) => Math.fround(v)));
    assert.equal(cohere.json().usage.prompt_tokens, many.reduce((n, t) => n + estimateTokens(t), 0), 'Bedrock\'s token count header');

    const v4 = await post('/v1/embeddings', { model: 'cohere-embed-4', input: 'alpha', dimensions: 4, encoding_format: 'float' });
    assert.equal(v4.statusCode, 200, v4.body);
    assert.equal(bedrock.requests.at(-1)!.body.output_dimension, 4);
    assert.deepEqual(v4.json().data[0].embedding, embeddingFor('alpha', 4));

    bedrock.reset();
    const sized = await post('/v1/embeddings', { model: 'cohere-embed', input: 'alpha', dimensions: 4 });
    assert.equal(sized.statusCode, 400, sized.body);
    assert.equal(sized.json().error.param, 'dimensions');
    assert.match(sized.json().error.message, /not a setting of Cohere Embed v3/);
    const ids = await post('/v1/embeddings', { model: 'titan-embed', input: [[1, 2]] });
    assert.equal(ids.statusCode, 400, ids.body);
    assert.match(ids.json().error.message, /token ids cannot be embedded by the Titan model on Bedrock/);
    assert.equal(bedrock.requests.length, 0, 'refused before any call');
    const wrongSize = await post('/v1/embeddings', { model: 'titan-embed', input: 'alpha', dimensions: 7 });
    assert.equal(wrongSize.statusCode, 400, wrongSize.body);
    assert.match(wrongSize.json().error.message, /ValidationException.*dimensions/, 'Bedrock\'s own refusal, named');

    bedrock.reset();
    bedrock.failNext({ status: 429, type: 'ThrottlingException', message: 'Too many requests, please wait before trying again.' });
    const throttled = await post('/v1/embeddings', { model: 'titan-embed', input: texts });
    assert.equal(throttled.statusCode, 429, throttled.body);
    assert.match(throttled.json().error.message, /ThrottlingException/);
    assert.equal(bedrock.requests.length, 3, 'the calls of the group all went (and were read); none after it');

    const gemini = await post('/v1beta/models/titan-embed:batchEmbedContents', { requests: [{ content: { parts: [{ text: 'alpha' }] }, outputDimensionality: 256 }, { content: { parts: [{ text: 'beta gamma' }] }, outputDimensionality: 256 }] });
    assert.equal(gemini.statusCode, 200, gemini.body);
    assert.deepEqual(gemini.json().embeddings.map((e: any) => e.values), [embeddingFor('alpha', 256), embeddingFor('beta gamma', 256)]);

    await gateway.deps.requestLog!.flush();
    const rows = await gateway.store.requestLog.list({ userId, limit: 50 });
    assert.equal(rows.find((r) => r.model === 'titan-embed' && r.status === 200 && r.path === '/v1/embeddings')!.inputTokens, tokens);
  });

  test('embedding input types: OpenAI clients\' input_type and Gemini clients\' taskType reach Cohere Embed (documents unless told) and Vertex; refused where a model has none or a batch mixes them', async () => {
    bedrock.reset();
    const query = await post('/v1/embeddings', { model: 'cohere-embed', input: ['where is my order'], input_type: 'search_query', encoding_format: 'float' });
    assert.equal(query.statusCode, 200, query.body);
    assert.deepEqual(bedrock.requests.map((r) => r.body.input_type), ['search_query']);
    assert.deepEqual(query.json().data[0].embedding, embeddingFor('where is my order', 8));

    bedrock.reset();
    const unknown = await post('/v1/embeddings', { model: 'cohere-embed', input: 'x', input_type: 'query' });
    assert.equal(unknown.statusCode, 400, unknown.body);
    assert.equal(unknown.json().error.param, 'input_type');
    assert.match(unknown.json().error.message, /must be one of search_document, search_query, classification, clustering/);
    const titan = await post('/v1/embeddings', { model: 'titan-embed', input: 'x', input_type: 'search_query' });
    assert.equal(titan.statusCode, 400, titan.body);
    assert.equal(titan.json().error.param, 'input_type');
    assert.match(titan.json().error.message, /not a setting of Titan Text Embeddings/);
    assert.equal(bedrock.requests.length, 0, 'refused before any call');

    // A Gemini client (LangChain's Google embeddings set taskType on every call) served by Cohere on Bedrock.
    const single = await post('/v1beta/models/cohere-embed:embedContent', { content: { parts: [{ text: 'where is my order' }] }, taskType: 'RETRIEVAL_QUERY' });
    assert.equal(single.statusCode, 200, single.body);
    assert.deepEqual(single.json().embedding.values, embeddingFor('where is my order', 8));
    const batch = await post('/v1beta/models/cohere-embed:batchEmbedContents', {
      // A document's task, or none (documents by default): one kind of embedding.
      requests: [{ model: 'models/cohere-embed', content: { parts: [{ text: 'doc one' }] }, taskType: 'RETRIEVAL_DOCUMENT' }, { model: 'models/cohere-embed', content: { parts: [{ text: 'doc two' }] } }],
    });
    assert.equal(batch.statusCode, 200, batch.body);
    assert.deepEqual(batch.json().embeddings.map((e: any) => e.values), [embeddingFor('doc one', 8), embeddingFor('doc two', 8)]);
    const similarity = await post('/v1beta/models/cohere-embed:embedContent', { content: { parts: [{ text: 'x' }] }, taskType: 'SEMANTIC_SIMILARITY' });
    assert.equal(similarity.statusCode, 200, similarity.body);
    assert.deepEqual(bedrock.requests.map((r) => [r.body.texts, r.body.input_type]), [
      [['where is my order'], 'search_query'],
      [['doc one', 'doc two'], 'search_document'],
      [['x'], 'search_document'],
    ]);

    bedrock.reset();
    const mixed = await post('/v1beta/models/cohere-embed:batchEmbedContents', {
      requests: [{ content: { parts: [{ text: 'a' }] }, taskType: 'RETRIEVAL_DOCUMENT' }, { content: { parts: [{ text: 'b' }] }, taskType: 'RETRIEVAL_QUERY' }],
    });
    assert.equal(mixed.statusCode, 400, mixed.body);
    assert.equal(mixed.json().error.status, 'INVALID_ARGUMENT', 'in the Gemini API\'s own error shape');
    assert.match(mixed.json().error.message, /requests\[1\]\.taskType.*Send one batch per task type/);
    const titanTask = await post('/v1beta/models/titan-embed:embedContent', { content: { parts: [{ text: 'a' }] }, taskType: 'RETRIEVAL_QUERY' });
    assert.equal(titanTask.statusCode, 200, titanTask.body);
    assert.deepEqual(bedrock.requests.map((r) => r.body), [{ inputText: 'a' }], 'Titan embeds every text alike: the task is not sent');

    vertex.reset();
    const toVertex = await post('/v1/embeddings', { model: 'embed-vertex', input: ['a', 'b'], input_type: 'search_query', encoding_format: 'float' });
    assert.equal(toVertex.statusCode, 200, toVertex.body);
    assert.deepEqual(vertex.requests.map((r) => r.body.instances.map((i: any) => i.task_type)), [['RETRIEVAL_QUERY', 'RETRIEVAL_QUERY']]);

    await gateway.deps.requestLog!.flush();
    const rows = await gateway.store.requestLog.list({ userId, limit: 100 });
    const geminiRows = rows.filter((r) => r.model === 'cohere-embed' && r.path === '/v1beta/models/cohere-embed:embedContent' && r.status === 200);
    assert.deepEqual(geminiRows.map((r) => r.inputTokens).sort((a, b) => a - b), [estimateTokens('x'), estimateTokens('where is my order')].sort((a, b) => a - b), 'Bedrock\'s token counts, for a Gemini client too');
  });

  test('a Converse model: tool history without tool definitions gets definitions, an unsupported field is refused by name', async () => {
    const history = [
      { role: 'user', content: 'weather?' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' }] },
    ];
    const answer = await post('/v1/messages', { model: 'nova-bedrock', max_tokens: 50, messages: history });
    assert.equal(answer.statusCode, 200, answer.body);
    const sent = bedrock.requests.at(-1)!.body;
    assert.deepEqual(sent.toolConfig, { tools: [{ toolSpec: { name: 'get_weather', inputSchema: { json: { type: 'object' } } } }] });
    assert.deepEqual(sent.messages[2].content[0], { toolResult: { toolUseId: 'toolu_1', content: [{ text: 'sunny' }], status: 'success' } });
    const refused = await post('/v1/messages', { model: 'nova-bedrock', max_tokens: 50, messages: history, thinking: { type: 'enabled', budget_tokens: 2000 } });
    assert.equal(refused.statusCode, 400, refused.body);
    assert.match(refused.json().error.message, /reached through Bedrock Converse.*thinking/);
  });

  for (const model of Object.keys(MODELS) as Model[]) {
    const expected = MODELS[model];
    test(`${model}: chat completions, JSON and stream`, async () => {
      const json = await post('/v1/chat/completions', { model, messages: [{ role: 'user', content: 'hi' }] });
      assert.equal(json.statusCode, 200, json.body);
      assert.equal(json.json().choices[0].message.content, expected);
      assert.ok(json.json().usage.prompt_tokens > 0);
      if (model.endsWith('-bedrock')) assert.equal(bedrock.requests.at(-1)!.headers['x-amz-security-token'], CREDENTIALS.sessionToken);
      const stream = await post('/v1/chat/completions', { model, messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } });
      assert.equal(stream.statusCode, 200, stream.body);
      const chunks = sseData(stream.body);
      assert.equal(chunks.map((c) => c.choices?.[0]?.delta?.content ?? '').join(''), expected);
      assert.ok(chunks.at(-1).usage.prompt_tokens > 0, stream.body);
    });

    test(`${model}: messages, JSON and stream`, async () => {
      const json = await post('/v1/messages', { model, max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
      assert.equal(json.statusCode, 200, json.body);
      assert.equal(json.json().content[0].text, expected);
      const stream = await post('/v1/messages', { model, max_tokens: 100, messages: [{ role: 'user', content: 'hi' }], stream: true });
      assert.equal(stream.statusCode, 200, stream.body);
      const events = sseData(stream.body);
      assert.equal(events.filter((e) => e.type === 'content_block_delta').map((e) => e.delta.text).join(''), expected);
      assert.equal(events.at(-1).type, 'message_stop');
      assert.ok(events.find((e) => e.type === 'message_delta').usage.output_tokens > 0, stream.body);
    });

    test(`${model}: Responses, JSON and stream`, async () => {
      const json = await post('/v1/responses', { model, input: 'hi' });
      assert.equal(json.statusCode, 200, json.body);
      const output = json.json().output.find((item: any) => item.type === 'message');
      assert.equal(output.content[0].text, expected);
      const stream = await post('/v1/responses', { model, input: 'hi', stream: true });
      assert.equal(stream.statusCode, 200, stream.body);
      const events = sseData(stream.body);
      assert.equal(events.filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta).join(''), expected);
      assert.equal(events.at(-1).type, 'response.completed');
      assert.ok(events.at(-1).response.usage.input_tokens > 0);
    });

    test(`${model}: Gemini generateContent and streamGenerateContent`, async () => {
      const json = await post(`/v1beta/models/${model}:generateContent`, { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
      assert.equal(json.statusCode, 200, json.body);
      assert.equal(json.json().candidates[0].content.parts.map((p: any) => p.text).join(''), expected);
      assert.ok(json.json().usageMetadata.promptTokenCount > 0);
      const stream = await post(`/v1beta/models/${model}:streamGenerateContent?alt=sse`, { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
      assert.equal(stream.statusCode, 200, stream.body);
      const chunks = sseData(stream.body);
      assert.equal(chunks.map((c) => (c.candidates?.[0]?.content?.parts ?? []).map((p: any) => p.text ?? '').join('')).join(''), expected);
    });
  }
});
