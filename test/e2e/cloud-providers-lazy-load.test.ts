// The cloud libraries (AWS's signer and event-stream codec, google-auth-library) are loaded only when
// a request goes to such a provider: the built gateway started with a bedrock and a vertex provider
// has none of them loaded once it is ready, and loads each with the first request that needs it.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { FakeBedrock } from '../helpers/cloud/fake-bedrock.ts';
import { FakeVertex } from '../helpers/cloud/fake-vertex.ts';
import { makeServiceAccount } from '../helpers/cloud/service-account.ts';
import { waitFor } from '../helpers/wait-for.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin', 'gwctl.js');
const RECORDER = fileURLToPath(new URL('../fixtures/record-loads/record-loads.mjs', import.meta.url));
const CREDENTIALS = { accessKeyId: 'AKIALAZYLOADTEST', secretAccessKey: 'lazy-load-secret-0001' };
const CLOUD_PACKAGES = /^(@smithy\/|@aws-sdk\/|@aws-crypto\/|google-auth-library$|gaxios$|gcp-metadata$)/;

describe('cloud libraries load with the first request that needs them', { timeout: 180_000 }, () => {
  let root: string;
  let loadsFile: string;
  let bedrock: FakeBedrock;
  let vertex: FakeVertex;
  let child: ChildProcessWithoutNullStreams;
  let textUrl: string;
  let key: string;
  let stdout = '';

  const cloudPackages = () =>
    [...new Set(readFileSync(loadsFile, 'utf8').split('\n').map((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1]).filter((name): name is string => !!name && CLOUD_PACKAGES.test(name)))].sort();

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'gwctl-lazy-'));
    loadsFile = join(root, 'loads.txt');
    writeFileSync(loadsFile, '');
    bedrock = await FakeBedrock.start({ region: 'us-east-1', credentials: CREDENTIALS });
    vertex = await FakeVertex.start({ project: 'lazy-project', region: 'global' });
    const account = makeServiceAccount('lazy-project', vertex.tokenUri);
    vertex.trustAccount(account);
    const config = join(root, 'providers.json');
    writeFileSync(config, JSON.stringify({
      providers: [
        { name: 'aws', type: 'bedrock', region: 'us-east-1', baseUrl: bedrock.url, accessKeyIdEnv: 'LZ_KEY', secretAccessKeyEnv: 'LZ_SECRET', models: [{ name: 'claude-b', upstreamModel: 'anthropic.claude-sonnet-4-5-20250929-v1:0' }] },
        { name: 'gcp', type: 'vertex', project: 'lazy-project', region: 'global', baseUrl: vertex.url, credentialsFileEnv: 'LZ_SA', models: ['gemini-2.5-flash'] },
      ],
    }));
    const env: NodeJS.ProcessEnv = {};
    for (const [name, value] of Object.entries(process.env)) if (!/^(GWCTL_|NODE_OPTIONS|NODE_TEST)/.test(name)) env[name] = value;
    Object.assign(env, { HOME: root, RECORD_LOADS: loadsFile, LZ_KEY: CREDENTIALS.accessKeyId, LZ_SECRET: CREDENTIALS.secretAccessKey, LZ_SA: account.writeTo(root), GWCTL_ADMIN_PASSWORD: 'lazy-admin-password-1' });
    const dataDir = join(root, 'data');
    child = spawn(process.execPath, ['--import', RECORDER, BIN, 'serve', '--host', '127.0.0.1', '--port', '0', '--image-port', '0', '--data-dir', dataDir, '--config', config], { env });
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    textUrl = await waitFor(() => /text API\s+(http:\/\/\S+)/.exec(stdout)?.[1], { what: 'the gateway to start', timeoutMs: 60_000 });
    const created = spawnSync(process.execPath, [BIN, 'admin', 'key', 'create', '--user', 'admin', '--json', '--data-dir', dataDir], { env: { ...env, RECORD_LOADS: '' }, encoding: 'utf8' });
    assert.equal(created.status, 0, created.stderr);
    key = JSON.parse(created.stdout).key;
  });
  after(async () => {
    child?.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode !== null ? resolve(undefined) : child.once('exit', resolve)));
    await Promise.all([bedrock?.close(), vertex?.close()]);
    rmSync(root, { recursive: true, force: true });
  });

  const ask = (model: string, stream: boolean) =>
    fetch(`${textUrl}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'hi' }] }) });

  test('ready with both providers configured: no cloud library loaded', async () => {
    const ready = await fetch(`${textUrl}/ready`);
    assert.equal(ready.status, 200);
    assert.deepEqual(cloudPackages(), []);
  });

  test('a Bedrock stream loads the signer and the event-stream codec; a Vertex request loads google-auth-library', async () => {
    const streamed = await ask('claude-b', true);
    assert.equal(streamed.status, 200, await streamed.clone().text());
    assert.match(await streamed.text(), /Hello from Claude on Bedrock|Hello/);
    const afterBedrock = cloudPackages();
    for (const name of ['@smithy/signature-v4', '@smithy/eventstream-codec']) assert.ok(afterBedrock.includes(name), `${name} loaded: ${afterBedrock.join(', ')}`);
    assert.ok(!afterBedrock.includes('google-auth-library'));
    const vertexAnswer = await ask('gemini-2.5-flash', false);
    assert.equal(vertexAnswer.status, 200, await vertexAnswer.clone().text());
    assert.ok(cloudPackages().includes('google-auth-library'));
  });
});
