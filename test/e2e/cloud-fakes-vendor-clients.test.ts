// The cloud fakes the gateway's tests rely on, proven against the vendors' own clients: AWS's
// Bedrock runtime client signs its requests (the fake recomputes every signature), gets JSON and
// parses the fake's event streams and errors; google-auth-library gets a token from the Vertex fake's
// token endpoint (which checks the JWT's signature with the account's public key), and @google/genai
// in Vertex mode calls it with that token; the openai SDK's AzureOpenAI client (legacy deployments)
// and the OpenAI client on /openai/v1 call the Azure fake.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { BedrockRuntimeClient, ConverseCommand, CountTokensCommand, ConverseStreamCommand, InvokeModelCommand, InvokeModelWithResponseStreamCommand } from '@aws-sdk/client-bedrock-runtime';
import { GoogleGenAI } from '@google/genai';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { JWT } from 'google-auth-library';
import OpenAI, { AzureOpenAI } from 'openai';
import { FakeAzure } from '../helpers/cloud/fake-azure.ts';
import { FakeBedrock } from '../helpers/cloud/fake-bedrock.ts';
import { FakeVertex } from '../helpers/cloud/fake-vertex.ts';
import { embeddingFor } from '../helpers/fake-gemini-answers.ts';
import { makeServiceAccount, type TestServiceAccount } from '../helpers/cloud/service-account.ts';

const REGION = 'us-east-1';
const CREDENTIALS = { accessKeyId: 'AKIAFAKEEXAMPLE', secretAccessKey: 'fake-secret-for-tests', sessionToken: 'fake-session-token' };
const CLAUDE = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';

/** Over HTTP/1.1: the client's default handler speaks HTTP/2, which a loopback fake over plain http does not. */
function bedrockClient(endpoint: string, credentials: typeof CREDENTIALS): BedrockRuntimeClient {
  return new BedrockRuntimeClient({ region: REGION, endpoint, credentials, maxAttempts: 1, requestHandler: new NodeHttpHandler() });
}

describe('the Bedrock fake against @aws-sdk/client-bedrock-runtime', { timeout: 120_000 }, () => {
  let fake: FakeBedrock;
  let client: BedrockRuntimeClient;
  const body = JSON.stringify({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] });

  before(async () => {
    fake = await FakeBedrock.start({ region: REGION, credentials: CREDENTIALS });
    client = bedrockClient(fake.url, CREDENTIALS);
  });
  after(async () => {
    client.destroy();
    await fake.close();
  });

  test('InvokeModel: signed request accepted, Claude JSON back, the profile id decoded from the path', async () => {
    const answer = await client.send(new InvokeModelCommand({ modelId: CLAUDE, body, contentType: 'application/json', accept: 'application/json' }));
    const json = JSON.parse(Buffer.from(answer.body).toString('utf8'));
    assert.equal(json.content[0].text, fake.answer.text);
    assert.equal(fake.requests.at(-1)!.model, CLAUDE);
    assert.match(String(fake.requests.at(-1)!.headers.authorization), /^AWS4-HMAC-SHA256 Credential=AKIAFAKEEXAMPLE\/\d{8}\/us-east-1\/bedrock\/aws4_request/);
  });

  test('InvokeModel for embedding models: Titan (one text, its token count) and Cohere (several texts, a required input_type), signed and read by the SDK', async () => {
    const titan = await client.send(new InvokeModelCommand({ modelId: 'amazon.titan-embed-text-v2:0', body: JSON.stringify({ inputText: 'alpha', dimensions: 256 }), contentType: 'application/json', accept: 'application/json' }));
    const titanJson = JSON.parse(Buffer.from(titan.body).toString('utf8'));
    assert.deepEqual(titanJson.embedding, embeddingFor('alpha', 256));
    assert.equal(titanJson.inputTextTokenCount, 2);
    const cohere = await client.send(new InvokeModelCommand({ modelId: 'cohere.embed-english-v3', body: JSON.stringify({ texts: ['alpha', 'beta'], input_type: 'search_document' }), contentType: 'application/json', accept: 'application/json' }));
    assert.deepEqual(JSON.parse(Buffer.from(cohere.body).toString('utf8')).embeddings, [embeddingFor('alpha', 8), embeddingFor('beta', 8)]);
    await assert.rejects(client.send(new InvokeModelCommand({ modelId: 'cohere.embed-english-v3', body: JSON.stringify({ texts: ['alpha'] }) })), (e: Error) => e.name === 'ValidationException' && /input_type/.test(e.message));
  });

  test('InvokeModelWithResponseStream: the SDK parses the fake event stream into the messages events', async () => {
    const answer = await client.send(new InvokeModelWithResponseStreamCommand({ modelId: CLAUDE, body, contentType: 'application/json' }));
    const types: string[] = [];
    let text = '';
    for await (const part of answer.body!) {
      assert.ok(part.chunk?.bytes, JSON.stringify(part));
      const event = JSON.parse(Buffer.from(part.chunk.bytes).toString('utf8'));
      types.push(event.type);
      if (event.type === 'content_block_delta') text += event.delta.text;
    }
    assert.equal(text, fake.answer.text);
    assert.equal(types[0], 'message_start');
    assert.equal(types.at(-1), 'message_stop');
  });

  test('a mid-stream exception reaches the SDK as that exception', async () => {
    fake.failNext({ midStream: 'throttlingException', message: 'Too many tokens, please wait.' });
    const answer = await client.send(new InvokeModelWithResponseStreamCommand({ modelId: CLAUDE, body, contentType: 'application/json' }));
    await assert.rejects(
      (async () => {
        for await (const _ of answer.body!) void _;
      })(),
      (error: Error) => error.name === 'ThrottlingException' && /Too many tokens/.test(error.message),
    );
  });

  test('Converse and ConverseStream: the SDK reads the answer and the stream events of a non-Claude model', async () => {
    const NOVA = 'us.amazon.nova-pro-v1:0';
    const messages = [{ role: 'user' as const, content: [{ text: 'hi' }] }];
    const answer = await client.send(new ConverseCommand({ modelId: NOVA, messages, inferenceConfig: { maxTokens: 64 } }));
    assert.equal(answer.output?.message?.content?.[0]?.text, fake.converseAnswer.text);
    assert.equal(answer.usage?.cacheReadInputTokens, fake.converseAnswer.usage.cacheReadInputTokens);
    const streamed = await client.send(new ConverseStreamCommand({ modelId: NOVA, messages }));
    let text = '';
    let usage: { inputTokens?: number } | undefined;
    let stop: string | undefined;
    for await (const event of streamed.stream!) {
      text += event.contentBlockDelta?.delta?.text ?? '';
      if (event.messageStop) stop = event.messageStop.stopReason;
      if (event.metadata) usage = event.metadata.usage;
    }
    assert.equal(text, fake.converseAnswer.text);
    assert.equal(stop, 'end_turn');
    assert.equal(usage?.inputTokens, fake.converseAnswer.usage.inputTokens);
    await assert.rejects(
      client.send(new ConverseCommand({ modelId: NOVA, messages: [...messages, { role: 'assistant', content: [{ toolUse: { toolUseId: 't1', name: 'f', input: {} } }] }] })),
      (e: Error) => e.name === 'ValidationException' && /toolConfig/.test(e.message),
    );
  });

  test('CountTokens: the SDK sends the invoke body as a blob, and reads the count', async () => {
    const counted = await client.send(new CountTokensCommand({ modelId: CLAUDE, input: { invokeModel: { body: new TextEncoder().encode(body) } } }));
    assert.equal(counted.inputTokens, JSON.stringify(JSON.parse(body).messages).length >> 2);
  });

  test('errors: throttling and validation parse as the SDK exceptions', async () => {
    fake.failNext({ status: 429, type: 'ThrottlingException', message: 'Rate exceeded' }, { status: 400, type: 'ValidationException', message: 'bad input' });
    await assert.rejects(client.send(new InvokeModelCommand({ modelId: CLAUDE, body })), (e: Error & { $metadata?: { httpStatusCode?: number } }) => e.name === 'ThrottlingException' && e.$metadata?.httpStatusCode === 429);
    await assert.rejects(client.send(new InvokeModelCommand({ modelId: CLAUDE, body })), (e: Error) => e.name === 'ValidationException' && e.message === 'bad input');
  });

  test('a wrong secret fails the signature check; an unknown key id is unrecognised', async () => {
    const wrongSecret = bedrockClient(fake.url, { ...CREDENTIALS, secretAccessKey: 'not-the-secret' });
    const wrongKey = bedrockClient(fake.url, { ...CREDENTIALS, accessKeyId: 'AKIAOTHER' });
    try {
      await assert.rejects(wrongSecret.send(new InvokeModelCommand({ modelId: CLAUDE, body })), (e: Error) => e.name === 'InvalidSignatureException');
      await assert.rejects(wrongKey.send(new InvokeModelCommand({ modelId: CLAUDE, body })), (e: Error) => e.name === 'UnrecognizedClientException');
    } finally {
      wrongSecret.destroy();
      wrongKey.destroy();
    }
  });
});

describe('the Vertex fake against google-auth-library and @google/genai', { timeout: 120_000 }, () => {
  const PROJECT = 'test-project';
  const LOCATION = 'us-east5';
  let fake: FakeVertex;
  let account: TestServiceAccount;

  before(async () => {
    fake = await FakeVertex.start({ project: PROJECT, region: LOCATION });
    account = makeServiceAccount(PROJECT, fake.tokenUri);
    fake.trustAccount(account);
  });
  after(() => fake.close());

  /** The library's JWT client for the account, its token requests sent to the key file's token_uri. */
  function jwtClient(privateKey = account.json.private_key!): JWT {
    const client = new JWT({ email: account.email, key: privateKey, keyId: account.keyId, scopes: ['https://www.googleapis.com/auth/cloud-platform'], additionalClaims: { aud: fake.tokenUri } });
    client.transporter.interceptors.request.add({
      resolved: async (options) => {
        if (String(options.url) === 'https://oauth2.googleapis.com/token') options.url = new URL(fake.tokenUri);
        return options;
      },
    });
    return client;
  }

  test('google-auth-library exchanges a signed assertion for a token; a key that is not the account\'s is refused', async () => {
    const token = await jwtClient().getAccessToken();
    assert.match(String(token.token), /^ya29\.fake-/);
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    await assert.rejects(jwtClient(stranger).getAccessToken(), /invalid_grant: Invalid JWT Signature/);
  });

  test('@google/genai in Vertex mode calls generateContent and streams with that token', async () => {
    const ai = new GoogleGenAI({ vertexai: true, project: PROJECT, location: LOCATION, apiVersion: 'v1', httpOptions: { baseUrl: fake.url }, googleAuthOptions: { authClient: jwtClient() } });
    const answer = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi' });
    assert.equal(answer.text, fake.geminiAnswer.text);
    assert.equal(answer.usageMetadata?.promptTokenCount, fake.geminiAnswer.usage.promptTokenCount);
    let streamed = '';
    for await (const chunk of await ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'hi' })) streamed += chunk.text ?? '';
    assert.equal(streamed, fake.geminiAnswer.text);
    assert.match(fake.requests.at(-1)!.path, /^\/v1\/projects\/test-project\/locations\/us-east5\/publishers\/google\/models\/gemini-2\.5-flash:streamGenerateContent\?alt=sse$/);
  });

  test('@google/genai in Vertex mode embeds: :predict for text-embedding and gemini-embedding-001 (one text a call), :embedContent for newer Gemini embedding models', async () => {
    const ai = new GoogleGenAI({ vertexai: true, project: PROJECT, location: LOCATION, apiVersion: 'v1', httpOptions: { baseUrl: fake.url }, googleAuthOptions: { authClient: jwtClient() } });
    const many = await ai.models.embedContent({ model: 'text-embedding-005', contents: ['alpha', 'beta gamma'], config: { outputDimensionality: 4, taskType: 'RETRIEVAL_DOCUMENT' } });
    assert.match(fake.requests.at(-1)!.path, /\/publishers\/google\/models\/text-embedding-005:predict$/);
    assert.deepEqual(fake.requests.at(-1)!.body, { instances: [{ content: 'alpha', task_type: 'RETRIEVAL_DOCUMENT' }, { content: 'beta gamma', task_type: 'RETRIEVAL_DOCUMENT' }], parameters: { outputDimensionality: 4 } });
    assert.deepEqual(many.embeddings?.map((e) => e.values), [embeddingFor('alpha', 4), embeddingFor('beta gamma', 4)]);
    assert.deepEqual(many.embeddings?.map((e) => e.statistics?.tokenCount), [2, 3]);
    const one = await ai.models.embedContent({ model: 'gemini-embedding-001', contents: 'alpha' });
    assert.match(fake.requests.at(-1)!.path, /gemini-embedding-001:predict$/);
    assert.deepEqual(one.embeddings?.[0]?.values, embeddingFor('alpha', 8));
    await assert.rejects(ai.models.embedContent({ model: 'gemini-embedding-001', contents: ['alpha', 'beta'] }), (e: Error & { status?: number }) => e.status === 400 && /supports up to 1 instances/.test(e.message));
    const newer = await ai.models.embedContent({ model: 'gemini-embedding-2-preview', contents: 'alpha', config: { outputDimensionality: 4 } });
    assert.match(fake.requests.at(-1)!.path, /gemini-embedding-2-preview:embedContent$/);
    assert.deepEqual(fake.requests.at(-1)!.body.embedContentConfig, { outputDimensionality: 4 });
    assert.deepEqual(newer.embeddings?.[0]?.values, embeddingFor('alpha', 4));
    assert.equal(newer.embeddings?.[0]?.statistics?.tokenCount, 2);
  });

  test('a token the fake did not issue is UNAUTHENTICATED', async () => {
    const madeUp = { getRequestHeaders: async () => new Headers({ authorization: 'Bearer ya29.made-up' }) };
    const ai = new GoogleGenAI({ vertexai: true, project: PROJECT, location: LOCATION, apiVersion: 'v1', httpOptions: { baseUrl: fake.url }, googleAuthOptions: { authClient: madeUp as never } });
    await assert.rejects(ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi' }), (e: Error & { status?: number }) => e.status === 401 && /UNAUTHENTICATED/.test(e.message));
  });
});

describe('the Azure fake against the openai SDK (AzureOpenAI on legacy deployments, OpenAI on /openai/v1)', { timeout: 120_000 }, () => {
  const KEY = 'azure-test-key';
  let fake: FakeAzure;

  before(async () => {
    fake = await FakeAzure.start({ apiKey: KEY, deployments: ['gpt-4o-prod', 'embed-prod'] });
  });
  after(() => fake.close());

  test('AzureOpenAI: chat JSON and stream, embeddings, at /openai/deployments/{deployment}/…?api-version=', async () => {
    const client = new AzureOpenAI({ endpoint: fake.url, apiKey: KEY, apiVersion: '2024-10-21', deployment: 'gpt-4o-prod' });
    const answer = await client.chat.completions.create({ model: 'gpt-4o-prod', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(answer.choices[0]!.message.content, fake.answer.text);
    assert.equal(fake.requests.at(-1)!.path, '/openai/deployments/gpt-4o-prod/chat/completions?api-version=2024-10-21');
    let streamed = '';
    for await (const chunk of await client.chat.completions.create({ model: 'gpt-4o-prod', messages: [{ role: 'user', content: 'hi' }], stream: true })) streamed += chunk.choices[0]?.delta.content ?? '';
    assert.equal(streamed, fake.answer.text);
    const embedder = new AzureOpenAI({ endpoint: fake.url, apiKey: KEY, apiVersion: '2024-10-21', deployment: 'embed-prod' });
    const vectors = await embedder.embeddings.create({ model: 'embed-prod', input: 'hi', encoding_format: 'float' });
    assert.deepEqual(vectors.data[0]!.embedding, [0.6, 0.8]);
  });

  test('OpenAI on the v1 API: chat, Responses JSON and stream; a wrong key is 401', async () => {
    const client = new OpenAI({ baseURL: `${fake.url}/openai/v1`, apiKey: 'unused', defaultHeaders: { 'api-key': KEY } });
    const chat = await client.chat.completions.create({ model: 'gpt-4o-prod', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(chat.choices[0]!.message.content, fake.answer.text);
    const response = await client.responses.create({ model: 'gpt-4o-prod', input: 'hi' });
    assert.equal(response.output_text, fake.answer.text);
    const final = await client.responses.stream({ model: 'gpt-4o-prod', input: 'hi' }).finalResponse();
    assert.equal(final.output_text, fake.answer.text);
    assert.equal(final.usage?.input_tokens_details.cached_tokens, fake.answer.usage.cacheRead);
    const wrong = new OpenAI({ baseURL: `${fake.url}/openai/v1`, apiKey: 'unused', defaultHeaders: { 'api-key': 'wrong' }, maxRetries: 0 });
    await assert.rejects(wrong.chat.completions.create({ model: 'gpt-4o-prod', messages: [{ role: 'user', content: 'hi' }] }), (e: Error & { status?: number }) => e.status === 401);
  });
});
