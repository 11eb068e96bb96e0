// The real Claude Code CLI (pinned, from the npm registry) through the built gateway to Claude on
// Amazon Bedrock and on Google Vertex AI (fakes that, like the clouds, refuse unknown body fields and
// betas): Claude Code speaks the messages protocol to the gateway as always; the gateway signs for
// Bedrock or fetches a Vertex token, keeps the betas and fields the cloud takes and drops the rest.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { FakeBedrock } from '../helpers/cloud/fake-bedrock.ts';
import { FakeVertex } from '../helpers/cloud/fake-vertex.ts';
import { makeServiceAccount } from '../helpers/cloud/service-account.ts';
import { GatewayProcess } from '../helpers/gateway-process.ts';
import { CLAUDE_CODE, installRealClient, runClaude, tempHome, type RunResult } from '../helpers/real-clients.ts';

const CREDENTIALS = { accessKeyId: 'AKIACLAUDECODETEST', secretAccessKey: 'claude-code-aws-secret-0001' };

function explain(result: RunResult): string {
  return `exit ${result.code} signal ${result.signal}\nstdout:\n${result.stdout}\nstderr:\n${result.stderr}`;
}

describe('the real Claude Code CLI through the gateway to Claude on Bedrock and Vertex', { timeout: 900_000 }, () => {
  let bedrock: FakeBedrock;
  let vertex: FakeVertex;
  let gw: GatewayProcess;
  let key: string;
  let dir: string;
  const homes: Array<() => void> = [];

  before(async () => {
    await installRealClient(CLAUDE_CODE);
    dir = mkdtempSync(join(tmpdir(), 'gwctl-claude-clouds-'));
    bedrock = await FakeBedrock.start({ region: 'us-east-1', credentials: CREDENTIALS });
    vertex = await FakeVertex.start({ project: 'cc-project', region: 'global' });
    const account = makeServiceAccount('cc-project', vertex.tokenUri);
    vertex.trustAccount(account);
    gw = await GatewayProcess.start({
      providers: {
        providers: [
          { name: 'aws', type: 'bedrock', region: 'us-east-1', baseUrl: bedrock.url, accessKeyIdEnv: 'CC_AWS_KEY', secretAccessKeyEnv: 'CC_AWS_SECRET', retries: 0, models: [{ name: 'claude-on-bedrock', upstreamModel: 'global.anthropic.claude-sonnet-4-5-20250929-v1:0' }] },
          { name: 'gcp', type: 'vertex', project: 'cc-project', region: 'global', baseUrl: vertex.url, credentialsFileEnv: 'CC_VERTEX_SA', retries: 0, models: [{ name: 'claude-on-vertex', upstreamModel: 'claude-sonnet-4-5@20250929' }] },
        ],
      },
      env: { CC_AWS_KEY: CREDENTIALS.accessKeyId, CC_AWS_SECRET: CREDENTIALS.secretAccessKey, CC_VERTEX_SA: account.writeTo(dir) },
    });
    key = (await gw.createKey('admin', 'claude-code-clouds')).key;
  });
  after(async () => {
    await gw?.cleanup();
    await Promise.all([bedrock?.close(), vertex?.close()]);
    for (const cleanup of homes) cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  function run(model: string): Promise<RunResult> {
    const made = tempHome();
    homes.push(made.cleanup);
    // Every model the CLI may pick (main, background, small) is the cloud one.
    return runClaude({
      home: made.home,
      prompt: 'say hello',
      env: { ANTHROPIC_BASE_URL: gw.textUrl, ANTHROPIC_AUTH_TOKEN: key, ANTHROPIC_MODEL: model, ANTHROPIC_SMALL_FAST_MODEL: model, ANTHROPIC_DEFAULT_HAIKU_MODEL: model, ANTHROPIC_DEFAULT_SONNET_MODEL: model, ANTHROPIC_DEFAULT_OPUS_MODEL: model },
    });
  }

  test('Claude on Bedrock answers Claude Code', async () => {
    const result = await run('claude-on-bedrock');
    assert.equal(result.code, 0, explain(result));
    assert.match(result.stdout, /Hello from Claude on Bedrock/, explain(result));
    const sent = bedrock.requests.find((r) => r.action === 'invoke-with-response-stream');
    assert.ok(sent, `Bedrock got: ${bedrock.requests.map((r) => r.action).join(', ')}`);
    assert.equal(sent.model, 'global.anthropic.claude-sonnet-4-5-20250929-v1:0');
    assert.ok(Array.isArray(sent.body.tools) && sent.body.tools.length > 0, 'Claude Code\'s tools reached Bedrock');
    // Claude Code's own beta is not one Bedrock takes: dropped, and said once in the gateway's log.
    assert.ok(!(sent.body.anthropic_beta ?? []).includes('claude-code-20250219'));
    const logged = gw.stderr.split('\n').filter((line) => line.includes('"provider":"aws"') && line.includes('"beta":"claude-code-20250219"') && line.includes('dropped beta'));
    assert.equal(logged.length, 1, gw.stderr);
  });

  test('Claude on Vertex answers Claude Code', async () => {
    const result = await run('claude-on-vertex');
    assert.equal(result.code, 0, explain(result));
    assert.match(result.stdout, /Hello from Claude on Vertex/, explain(result));
    const sent = vertex.requests.find((r) => r.method === 'streamRawPredict');
    assert.ok(sent, `Vertex got: ${vertex.requests.map((r) => r.method).join(', ')}`);
    assert.ok(vertex.tokenRequests >= 1);
  });
});
