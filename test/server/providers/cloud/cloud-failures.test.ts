// What clients see when a cloud says no: a refused signature, an expired or refused token and a
// wrong key are the gateway's own credentials failing (502 naming the provider and the variables,
// never a secret); AWS throttling, validation and model-not-ready errors keep their meaning (429 /
// 400 / 503 with retry hints); a stream cut by an AWS exception ends with the protocol's error event.
// Also: betas and body fields a cloud does not take are dropped and counted, counting tokens works,
// and concurrent requests share one token refresh.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { parseGatewayConfig } from '../../../../server/config/gateway-file.ts';
import { buildProviders } from '../../../../server/providers/model-router.ts';
import { drainDroppedFeatures } from '../../../../server/providers/cloud-claude/dropped-features.ts';
import { FakeAzure } from '../../../helpers/cloud/fake-azure.ts';
import { FakeBedrock } from '../../../helpers/cloud/fake-bedrock.ts';
import { FakeVertex } from '../../../helpers/cloud/fake-vertex.ts';
import { makeServiceAccount } from '../../../helpers/cloud/service-account.ts';
import { bearer, createTestGateway, type TestGateway } from '../../../helpers/test-app.ts';

const CREDENTIALS = { accessKeyId: 'AKIAGATEWAYTEST', secretAccessKey: 'gateway-secret-for-tests' };
const SECRETS = { BEDROCK_API_KEY: 'bedrock-api-key-right', BEDROCK_WRONG_API_KEY: 'bedrock-api-key-wrong-321', AWS_KEY_ID: CREDENTIALS.accessKeyId, AWS_SECRET: CREDENTIALS.secretAccessKey, AWS_WRONG_SECRET: 'not-the-real-secret-123', AZURE_KEY: 'azure-key-right', AZURE_WRONG_KEY: 'azure-key-wrong-456', VERTEX_TOKEN: 'ya29.expired-token-789' };
const CLAUDE_ON_BEDROCK = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';

describe('cloud providers: refusals, errors, dropped features, token refresh', { timeout: 120_000 }, () => {
  let bedrock: FakeBedrock;
  let vertex: FakeVertex;
  let azure: FakeAzure;
  let gateway: TestGateway;
  let key: string;
  let dir: string;
  const env: Record<string, string> = { ...SECRETS };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gwctl-cloud-'));
    bedrock = await FakeBedrock.start({ region: 'eu-west-1', credentials: CREDENTIALS, apiKey: SECRETS.BEDROCK_API_KEY });
    vertex = await FakeVertex.start({ project: 'test-project', region: 'global', tokenLifetimeSeconds: 120 });
    azure = await FakeAzure.start({ apiKey: SECRETS.AZURE_KEY, deployments: ['gpt-4o-prod'] });
    const trusted = makeServiceAccount('test-project', vertex.tokenUri);
    const stranger = makeServiceAccount('test-project', vertex.tokenUri);
    vertex.trustAccount(trusted);
    env.VERTEX_SA = trusted.writeTo(dir, 'trusted.json');
    env.VERTEX_SA_STRANGER = stranger.writeTo(dir, 'stranger.json');
    const claude = (name: string) => [{ name, upstreamModel: CLAUDE_ON_BEDROCK }];
    const config = parseGatewayConfig('providers.yaml', {
      providers: [
        { name: 'aws', type: 'bedrock', region: 'eu-west-1', baseUrl: bedrock.url, accessKeyIdEnv: 'AWS_KEY_ID', secretAccessKeyEnv: 'AWS_SECRET', retries: 0, models: claude('claude-ok') },
        { name: 'aws-key', type: 'bedrock', region: 'eu-west-1', baseUrl: bedrock.url, apiKeyEnv: 'BEDROCK_API_KEY', retries: 0, models: claude('claude-api-key') },
        { name: 'aws-key-bad', type: 'bedrock', region: 'eu-west-1', baseUrl: bedrock.url, apiKeyEnv: 'BEDROCK_WRONG_API_KEY', retries: 0, models: claude('claude-bad-api-key') },
        { name: 'aws-bad', type: 'bedrock', region: 'eu-west-1', baseUrl: bedrock.url, accessKeyIdEnv: 'AWS_KEY_ID', secretAccessKeyEnv: 'AWS_WRONG_SECRET', retries: 0, models: claude('claude-bad-secret') },
        { name: 'gcp', type: 'vertex', project: 'test-project', region: 'global', baseUrl: vertex.url, credentialsFileEnv: 'VERTEX_SA', retries: 0, models: [{ name: 'claude-vertex', upstreamModel: 'claude-sonnet-4-5@20250929' }, { name: 'gemini-vertex', upstreamModel: 'gemini-2.5-flash' }] },
        { name: 'gcp-token', type: 'vertex', project: 'test-project', region: 'global', baseUrl: vertex.url, accessTokenEnv: 'VERTEX_TOKEN', retries: 0, models: [{ name: 'gemini-expired', upstreamModel: 'gemini-2.5-flash' }] },
        { name: 'gcp-stranger', type: 'vertex', project: 'test-project', region: 'global', baseUrl: vertex.url, credentialsFileEnv: 'VERTEX_SA_STRANGER', retries: 0, models: [{ name: 'claude-stranger', upstreamModel: 'claude-sonnet-4-5@20250929' }] },
        { name: 'az-bad', type: 'azure', baseUrl: azure.url, apiKeyEnv: 'AZURE_WRONG_KEY', retries: 0, models: [{ name: 'gpt-bad-key', upstreamModel: 'gpt-4o-prod' }] },
      ],
    });
    gateway = await createTestGateway({ providers: buildProviders(config.providers, env) });
    key = (await gateway.userWithKey()).key;
  });
  beforeEach(() => {
    bedrock.reset();
    vertex.reset();
  });
  after(async () => {
    await gateway.close();
    await Promise.all([bedrock.close(), vertex.close(), azure.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    gateway.text.inject({ method: 'POST', url, headers: { ...bearer(key), 'content-type': 'application/json', ...headers }, payload: JSON.stringify(payload) });
  const chat = (model: string) => post('/v1/chat/completions', { model, messages: [{ role: 'user', content: 'hi' }] });
  const noSecret = (text: string) => {
    for (const secret of [...Object.values(SECRETS), key]) assert.ok(!text.includes(secret), `a secret leaked: ${text}`);
  };

  test('a refused signature is a 502 naming the provider and its variables, not the secret', async () => {
    const answer = await chat('claude-bad-secret');
    assert.equal(answer.statusCode, 502, answer.body);
    assert.equal(answer.json().error.code, 'upstream_auth_failed');
    assert.match(answer.json().error.message, /"aws-bad" refused the gateway's credentials.*\$AWS_KEY_ID, \$AWS_WRONG_SECRET/);
    assert.equal(answer.headers['x-should-retry'], 'false');
    noSecret(answer.body);
  });

  test('a cloud provider whose credential keeps being refused cools down like any provider', async () => {
    for (let i = 0; i < 3; i += 1) assert.equal((await chat('claude-bad-secret')).statusCode, 502);
    assert.equal(gateway.deps.router.health.state('aws-bad'), 'cooling');
    assert.equal(gateway.deps.router.health.state('aws'), 'healthy');
  });

  test('a Bedrock API key goes as Bearer; a wrong one is a 502 naming its variable', async () => {
    const answer = await chat('claude-api-key');
    assert.equal(answer.statusCode, 200, answer.body);
    assert.equal(bedrock.requests.at(-1)!.headers.authorization, `Bearer ${SECRETS.BEDROCK_API_KEY}`);
    const refused = await chat('claude-bad-api-key');
    assert.equal(refused.statusCode, 502, refused.body);
    assert.match(refused.json().error.message, /"aws-key-bad".*\(\$BEDROCK_WRONG_API_KEY\)/);
    noSecret(refused.body);
  });

  test('a client leaving a Bedrock stream stops the upstream call', async () => {
    await gateway.text.listen({ port: 0, host: '127.0.0.1' });
    const port = (gateway.text.server.address() as AddressInfo).port;
    bedrock.failNext({ hangAfterEvents: 3 });
    const leaving = new AbortController();
    const response = await request(`http://127.0.0.1:${port}/v1/messages`, {
      method: 'POST',
      headers: { ...bearer(key), 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude-ok', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
      signal: leaving.signal,
    });
    assert.equal(response.statusCode, 200);
    let received = '';
    for await (const chunk of response.body) {
      received += Buffer.from(chunk).toString('utf8');
      if (received.includes('content_block_start')) break;
    }
    leaving.abort();
    assert.equal(await bedrock.requests.at(-1)!.ended, 'aborted-by-client');
  });

  test('a wrong Azure key and an expired Vertex token are 502s naming their variables', async () => {
    const azureAnswer = await chat('gpt-bad-key');
    assert.equal(azureAnswer.statusCode, 502, azureAnswer.body);
    assert.match(azureAnswer.json().error.message, /"az-bad".*\$AZURE_WRONG_KEY/);
    const expired = await post('/v1beta/models/gemini-expired:generateContent', { contents: [{ parts: [{ text: 'hi' }] }] });
    assert.equal(expired.statusCode, 502, expired.body);
    assert.match(expired.json().error.message, /"gcp-token".*\$VERTEX_TOKEN/);
    noSecret(azureAnswer.body + expired.body);
  });

  test('a service account the token endpoint refuses is a 502 naming the account and its variable', async () => {
    const answer = await post('/v1/messages', { model: 'claude-stranger', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(answer.statusCode, 502, answer.body);
    assert.equal(answer.json().error.type, 'api_error');
    assert.match(answer.json().error.message, /"gcp-stranger".*gateway@test-project\.iam\.gserviceaccount\.com.*\$VERTEX_SA_STRANGER/);
    assert.equal(vertex.requests.length, 0, 'no API call without a token');
  });

  test('AWS throttling, validation and model-not-ready keep their meaning and retry hints', async () => {
    bedrock.failNext(
      { status: 429, type: 'ThrottlingException', message: 'Too many requests, please wait before trying again.' },
      { status: 400, type: 'ValidationException', message: 'messages: field required' },
      { status: 429, type: 'ModelNotReadyException', message: 'Model is not ready for inference.' },
    );
    const throttled = await post('/v1/messages', { model: 'claude-ok', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(throttled.statusCode, 429, throttled.body);
    assert.equal(throttled.json().error.type, 'rate_limit_error');
    assert.match(throttled.json().error.message, /ThrottlingException: Too many requests/);
    assert.equal(throttled.headers['x-should-retry'], 'true');
    const invalid = await chat('claude-ok');
    assert.equal(invalid.statusCode, 400, invalid.body);
    assert.match(invalid.json().error.message, /ValidationException: messages: field required/);
    assert.equal(invalid.headers['x-should-retry'], 'false');
    const notReady = await chat('claude-ok');
    assert.equal(notReady.statusCode, 503, notReady.body);
    assert.equal(notReady.headers['x-should-retry'], 'true');
  });

  test('an AWS exception inside a stream ends it with the protocol\'s error event', async () => {
    bedrock.failNext({ midStream: 'throttlingException', message: 'Too many tokens, please wait.' });
    const answer = await post('/v1/messages', { model: 'claude-ok', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(answer.statusCode, 200);
    assert.match(answer.body, /event: error\ndata: \{"type":"error","error":\{"type":"rate_limit_error","message":"Bedrock ThrottlingException: Too many tokens, please wait\."\}\}/);
    assert.doesNotMatch(answer.body, /message_stop/);
  });

  test('betas and body fields the cloud does not take are dropped and counted; known ones reach it', async () => {
    drainDroppedFeatures();
    const payload = { model: 'claude-ok', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }], thinking: { type: 'enabled', budget_tokens: 1024 }, future_field: { x: 1 } };
    const answer = await post('/v1/messages', payload, { 'anthropic-beta': 'interleaved-thinking-2025-05-14,claude-code-20250219, brand-new-beta-2099-01-01' });
    assert.equal(answer.statusCode, 200, answer.body);
    const sent = bedrock.requests.at(-1)!.body;
    assert.deepEqual(sent.anthropic_beta, ['interleaved-thinking-2025-05-14']);
    assert.deepEqual(sent.thinking, payload.thinking);
    assert.ok(!('future_field' in sent) && !('model' in sent));
    const dropped = drainDroppedFeatures().map((d) => `${d.feature.provider}:${d.feature.kind}:${d.feature.name}`).sort();
    assert.deepEqual(dropped, ['aws:beta:brand-new-beta-2099-01-01', 'aws:beta:claude-code-20250219', 'aws:field:future_field']);

    const toVertex = await post('/v1/messages', { ...payload, model: 'claude-vertex', stream: true }, { 'anthropic-beta': 'context-1m-2025-08-07,claude-code-20250219' });
    assert.equal(toVertex.statusCode, 200, toVertex.body);
    assert.equal(vertex.requests.at(-1)!.headers['anthropic-beta'], 'context-1m-2025-08-07');
    assert.equal(vertex.requests.at(-1)!.body.stream, true);
  });

  test('count tokens: messages count_tokens on Bedrock and Vertex Claude, Gemini countTokens on Vertex', async () => {
    const messages = [{ role: 'user', content: 'count these words please' }];
    for (const model of ['claude-ok', 'claude-vertex']) {
      const counted = await post('/v1/messages/count_tokens', { model, messages });
      assert.equal(counted.statusCode, 200, counted.body);
      assert.equal(counted.json().input_tokens, JSON.stringify(messages).length >> 2);
    }
    const gemini = await post('/v1beta/models/gemini-vertex:countTokens', { contents: [{ parts: [{ text: 'hi' }] }] });
    assert.equal(gemini.statusCode, 200, gemini.body);
    assert.equal(gemini.json().totalTokens, vertex.geminiAnswer.usage.promptTokenCount);
  });

  test('concurrent requests needing a new token share one refresh', async () => {
    // Tokens here live 120 s, inside the refresh margin: every request wants a fresh one.
    vertex.tokenDelayMs = 300;
    const before = vertex.tokenRequests;
    const answers = await Promise.all(Array.from({ length: 8 }, () => post('/v1beta/models/gemini-vertex:generateContent', { contents: [{ parts: [{ text: 'hi' }] }] })));
    vertex.tokenDelayMs = 0;
    for (const answer of answers) assert.equal(answer.statusCode, 200, answer.body);
    assert.equal(vertex.tokenRequests - before, 1);
  });
});
