// One providers file with a bedrock, a vertex and an azure provider, each pointed at its fake, run by
// the built gateway (`gwctl serve`): the official openai (chat completions and Responses),
// @anthropic-ai/sdk and @google/genai clients get JSON and streamed answers from Claude on Bedrock,
// Claude and Gemini on Vertex, and GPT on Azure; usage lands in the request log and the token
// metrics (cache classes included); serve prints each provider's type and region; credentials
// never show in the output, the logs or the answers. Fakes: test/helpers/cloud/ (proven against the
// vendors' clients in cloud-fakes-vendor-clients.test.ts).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import Database from 'better-sqlite3';
import OpenAI from 'openai';
import { FakeAzure } from '../helpers/cloud/fake-azure.ts';
import { FakeBedrock } from '../helpers/cloud/fake-bedrock.ts';
import { FakeVertex } from '../helpers/cloud/fake-vertex.ts';
import { makeServiceAccount } from '../helpers/cloud/service-account.ts';
import { GatewayProcess, isolateClientEnvironment } from '../helpers/gateway-process.ts';
import { waitFor } from '../helpers/wait-for.ts';

const CREDENTIALS = { accessKeyId: 'AKIAE2ECLOUDTEST', secretAccessKey: 'e2e-aws-secret-value-0001' };
const METRICS_TOKEN = 'metrics-token-cloud-e2e';
const SECRETS: Record<string, string> = { AWS_ACCESS_KEY_ID_GW: CREDENTIALS.accessKeyId, AWS_SECRET_ACCESS_KEY_GW: CREDENTIALS.secretAccessKey, AZURE_OPENAI_KEY_GW: 'e2e-azure-key-value-0002' };
const EXPECTED = {
  'claude-bedrock': 'Hello from Claude on Bedrock',
  'claude-vertex': 'Hello from Claude on Vertex',
  'gemini-vertex': 'Hello from Gemini on Vertex',
  'gpt-azure': 'Hello from GPT on Azure',
} as const;
const MODELS = Object.keys(EXPECTED) as Array<keyof typeof EXPECTED>;

describe('official SDKs through the built gateway to Bedrock, Vertex and Azure (fakes)', { timeout: 300_000 }, () => {
  let bedrock: FakeBedrock;
  let vertex: FakeVertex;
  let azure: FakeAzure;
  let gw: GatewayProcess;
  let key: string;
  let dir: string;
  let restoreEnv: () => void;

  before(async () => {
    restoreEnv = isolateClientEnvironment();
    dir = mkdtempSync(join(tmpdir(), 'gwctl-cloud-e2e-'));
    bedrock = await FakeBedrock.start({ region: 'us-west-2', credentials: CREDENTIALS });
    vertex = await FakeVertex.start({ project: 'e2e-project', region: 'us-east5' });
    azure = await FakeAzure.start({ apiKey: SECRETS.AZURE_OPENAI_KEY_GW, deployments: ['gpt-4o-prod'] });
    const account = makeServiceAccount('e2e-project', vertex.tokenUri);
    vertex.trustAccount(account);
    gw = await GatewayProcess.start({
      providers: [
        'providers:',
        '  - name: aws',
        '    type: bedrock',
        '    region: us-west-2',
        `    baseUrl: ${bedrock.url}`,
        '    accessKeyIdEnv: AWS_ACCESS_KEY_ID_GW',
        '    secretAccessKeyEnv: AWS_SECRET_ACCESS_KEY_GW',
        '    models: [{ name: claude-bedrock, upstreamModel: "global.anthropic.claude-sonnet-4-5-20250929-v1:0" }]',
        '  - name: gcp',
        '    type: vertex',
        '    project: e2e-project',
        '    region: us-east5',
        `    baseUrl: ${vertex.url}`,
        '    credentialsFileEnv: VERTEX_SA_FILE',
        '    models: [{ name: claude-vertex, upstreamModel: "claude-sonnet-4-5@20250929" }, { name: gemini-vertex, upstreamModel: gemini-2.5-flash }]',
        '  - name: az',
        '    type: azure',
        `    baseUrl: ${azure.url}`,
        '    apiKeyEnv: AZURE_OPENAI_KEY_GW',
        '    models: [{ name: gpt-azure, upstreamModel: gpt-4o-prod }]',
        '',
      ].join('\n'),
      env: { ...SECRETS, VERTEX_SA_FILE: account.writeTo(dir), GWCTL_METRICS_TOKEN: METRICS_TOKEN },
      logLevel: 'debug',
    });
    key = (await gw.createKey('admin', 'cloud')).key;
  });
  after(async () => {
    await gw?.stop();
    await Promise.all([bedrock?.close(), vertex?.close(), azure?.close()]);
    rmSync(dir, { recursive: true, force: true });
    restoreEnv();
  });

  test('serve names each provider with its type and region', () => {
    assert.match(gw.stdout, /aws \[bedrock, us-west-2\] \(claude-bedrock\)/);
    assert.match(gw.stdout, /gcp \[vertex, us-east5\] \(claude-vertex, gemini-vertex\)/);
    assert.match(gw.stdout, /az \[azure\] \(gpt-azure\)/);
  });

  test('openai SDK: chat completions and Responses, JSON and stream, from every cloud model', async () => {
    const client = new OpenAI({ apiKey: key, baseURL: `${gw.textUrl}/v1`, maxRetries: 0 });
    for (const model of MODELS) {
      const chat = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });
      assert.equal(chat.choices[0]!.message.content, EXPECTED[model], model);
      let streamed = '';
      for await (const chunk of await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], stream: true })) streamed += chunk.choices[0]?.delta.content ?? '';
      assert.equal(streamed, EXPECTED[model], model);
      const response = await client.responses.create({ model, input: 'hi' });
      assert.equal(response.output_text, EXPECTED[model], model);
      const final = await client.responses.stream({ model, input: 'hi' }).finalResponse();
      assert.equal(final.output_text, EXPECTED[model], model);
      assert.ok((final.usage?.input_tokens ?? 0) > 0, model);
    }
  });

  test('@anthropic-ai/sdk: messages JSON and stream, with cache usage, from every cloud model', async () => {
    const client = new Anthropic({ apiKey: key, baseURL: gw.textUrl, maxRetries: 0 });
    for (const model of MODELS) {
      const message = await client.messages.create({ model, max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
      assert.deepEqual(message.content.map((b) => (b.type === 'text' ? b.text : '')).join(''), EXPECTED[model], model);
      const final = await client.messages.stream({ model, max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
      assert.equal(final.content.map((b) => (b.type === 'text' ? b.text : '')).join(''), EXPECTED[model], model);
      assert.ok(final.usage.input_tokens > 0, model);
    }
    const claude = await client.messages.create({ model: 'claude-bedrock', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(claude.usage.cache_read_input_tokens, bedrock.answer.usage.cacheRead);
    assert.equal(claude.usage.cache_creation_input_tokens, bedrock.answer.usage.cacheCreation);
  });

  test('@google/genai: generateContent and streams from every cloud model', async () => {
    const ai = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: gw.textUrl } });
    for (const model of MODELS) {
      const answer = await ai.models.generateContent({ model, contents: 'hi' });
      assert.equal(answer.text, EXPECTED[model], model);
      let streamed = '';
      for await (const chunk of await ai.models.generateContentStream({ model, contents: 'hi' })) streamed += chunk.text ?? '';
      assert.equal(streamed, EXPECTED[model], model);
    }
  });

  test('usage is recorded per model, cache classes included, and no credential shows anywhere', async () => {
    const rows = await waitFor(
      () => {
        const db = new Database(join(gw.dataDir, 'gateway.db'), { readonly: true, fileMustExist: true });
        try {
          const all = db.prepare('select model, status, input_tokens, output_tokens from request_log').all() as Array<{ model: string; status: number; input_tokens: number; output_tokens: number }>;
          return MODELS.every((m) => all.filter((r) => r.model === m && r.status === 200 && r.input_tokens > 0 && r.output_tokens > 0).length >= 6) ? all : undefined;
        } finally {
          db.close();
        }
      },
      { what: 'request log rows with usage for every cloud model', timeoutMs: 60_000 },
    );
    const bedrockRow = rows.find((r) => r.model === 'claude-bedrock' && r.status === 200)!;
    const { input, cacheRead, cacheCreation, output } = { ...bedrock.answer.usage, cacheRead: bedrock.answer.usage.cacheRead!, cacheCreation: bedrock.answer.usage.cacheCreation! };
    assert.equal(bedrockRow.input_tokens, input + cacheRead + cacheCreation);
    assert.equal(bedrockRow.output_tokens, output);
    const metrics = await (await fetch(`${gw.textUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    assert.match(metrics, /gwctl_tokens_total\{model="claude-bedrock",class="cache_read"\} [1-9]/);
    assert.match(metrics, /gwctl_tokens_total\{model="claude-vertex",class="cache_write_5m"\} [1-9]/);
    assert.match(metrics, /gwctl_tokens_total\{model="gemini-vertex",class="cache_read"\} [1-9]/);
    assert.match(metrics, /gwctl_tokens_total\{model="gpt-azure",class="cache_read"\} [1-9]/);
    const everything = gw.stdout + gw.stderr + JSON.stringify(rows);
    for (const secret of [...Object.values(SECRETS), key]) assert.ok(!everything.includes(secret), 'a credential leaked into output, logs or the request log');
  });
});
