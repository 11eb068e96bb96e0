// The cloud providers' small parts alone: the providers-file fields (and their refusals), the cached
// access token (refresh margin, one fetch at a time, a still-valid token kept when a refresh fails),
// the event-stream reader (messages cut anywhere, corrupt CRCs caught), and the dropped-feature count
// reaching the metrics with one log line per name.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { parseGatewayConfig } from '../../../../server/config/gateway-file.ts';
import { ConfigError } from '../../../../server/errors/config-error.ts';
import { GatewayMetrics } from '../../../../server/metrics/gateway-metrics.ts';
import { eventStreamMessages, EventStreamFramingError } from '../../../../server/providers/bedrock/event-stream-frames.ts';
import { bedrockStreamAsSse } from '../../../../server/providers/bedrock/bedrock-stream.ts';
import { noteDroppedFeature, onDroppedFeature } from '../../../../server/providers/cloud-claude/dropped-features.ts';
import { buildProviders } from '../../../../server/providers/model-router.ts';
import { CachedAccessToken } from '../../../../server/providers/vertex/cached-access-token.ts';

const parse = (provider: Record<string, unknown>) => parseGatewayConfig('p.yaml', { providers: [{ name: 'c', models: ['m'], ...provider }] });
const refused = (provider: Record<string, unknown>, pattern: RegExp) => assert.throws(() => parse(provider), (e: Error) => e instanceof ConfigError && pattern.test(e.message));

describe('providers file: bedrock, vertex and azure fields', () => {
  test('valid entries parse with their cloud fields', () => {
    const bedrock = parse({ type: 'bedrock', region: 'us-west-2', accessKeyIdEnv: 'AK', secretAccessKeyEnv: 'SK', sessionTokenEnv: 'ST' }).providers[0]!;
    assert.deepEqual(bedrock.cloud, { type: 'bedrock', region: 'us-west-2', accessKeyIdEnv: 'AK', secretAccessKeyEnv: 'SK', sessionTokenEnv: 'ST' });
    assert.equal(parse({ type: 'bedrock', region: 'eu-central-1', apiKeyEnv: 'BEDROCK_KEY' }).providers[0]!.apiKeyEnv, 'BEDROCK_KEY');
    assert.equal(parse({ type: 'vertex', project: 'p-1', region: 'global', accessTokenEnv: 'TOKEN' }).providers[0]!.cloud?.type, 'vertex');
    assert.deepEqual(parse({ type: 'azure', baseUrl: 'https://r.openai.azure.com', apiKeyEnv: 'K', apiVersion: '2024-10-21' }).providers[0]!.cloud, { type: 'azure', apiVersion: '2024-10-21', accessTokenEnv: undefined });
  });

  test('bad entries are refused naming the field', () => {
    refused({ type: 'bedrock', accessKeyIdEnv: 'AK', secretAccessKeyEnv: 'SK' }, /providers\[0\]\.region must be a region name/);
    refused({ type: 'bedrock', region: 'us-east-1' }, /accessKeyIdEnv and secretAccessKeyEnv \(or apiKeyEnv/);
    refused({ type: 'bedrock', region: 'us-east-1', accessKeyIdEnv: 'AK' }, /secretAccessKeyEnv is needed too/);
    refused({ type: 'bedrock', region: 'us-east-1', accessKeyIdEnv: 'AK', secretAccessKeyEnv: 'SK', apiKeyEnv: 'K' }, /apiKeyEnv cannot be combined/);
    refused({ type: 'bedrock', region: 'us-east-1', secretAccessKey: 'inline' }, /secretAccessKey is an inline credential; .* name that with secretAccessKeyEnv/);
    refused({ type: 'vertex', project: 'p', region: 'global', credentials: { private_key: 'inline' } }, /credentials is an inline credential; .* name that with credentialsFileEnv/);
    refused({ type: 'vertex', region: 'us-east5', accessTokenEnv: 'T' }, /project must be a Google Cloud project id/);
    refused({ type: 'vertex', project: 'p', region: 'us-east5' }, /credentialsFileEnv or accessTokenEnv \(exactly one\)/);
    refused({ type: 'vertex', project: 'p', region: 'us-east5', accessTokenEnv: 'T', credentialsFileEnv: 'F' }, /exactly one/);
    refused({ type: 'azure', apiKeyEnv: 'K' }, /baseUrl must be the resource root/);
    refused({ type: 'azure', baseUrl: 'https://r.openai.azure.com/openai/v1', apiKeyEnv: 'K' }, /without \/openai/);
    refused({ type: 'azure', baseUrl: 'https://r.openai.azure.com', apiKeyEnv: 'K', apiVersion: 'latest' }, /apiVersion must be an API version/);
    refused({ type: 'azure', baseUrl: 'https://r.openai.azure.com' }, /apiKeyEnv or accessTokenEnv/);
  });

  test('every provider type names where its credential comes from (for the 502 when it is refused), never the value', () => {
    const env = { K: 'value-1', AK: 'value-2', SK: 'value-3', T: 'value-4' };
    const sources = buildProviders(
      parseGatewayConfig('p.yaml', {
        providers: [
          { name: 'o', type: 'openai', baseUrl: 'http://127.0.0.1:1/v1', apiKeyEnv: 'K', models: ['a'] },
          { name: 'm', type: 'anthropic', baseUrl: 'http://127.0.0.1:1', apiKeyEnv: 'K', models: ['b'] },
          { name: 'b', type: 'bedrock', region: 'us-east-1', accessKeyIdEnv: 'AK', secretAccessKeyEnv: 'SK', models: ['c'] },
          { name: 'v', type: 'vertex', project: 'p', region: 'global', accessTokenEnv: 'T', models: ['d'] },
          { name: 'z', type: 'azure', baseUrl: 'https://r.openai.azure.com', apiKeyEnv: 'K', models: ['e'] },
        ],
      }).providers,
      env,
    ).map((p) => p.credentialSource ?? '');
    assert.deepEqual(sources.map((s) => s.split(';')[0]), ['$K', '$K', '$AK, $SK', '$T', '$K']);
    for (const value of Object.values(env)) assert.ok(!sources.join().includes(value));
  });

  test('a missing variable or unusable service-account file stops start-up naming provider and variable', () => {
    const build = (provider: Record<string, unknown>, env: Record<string, string>) => () => buildProviders(parse(provider).providers, env);
    assert.throws(build({ type: 'bedrock', region: 'us-east-1', accessKeyIdEnv: 'AK', secretAccessKeyEnv: 'SK' }, { AK: 'x' }), /Provider "c" takes its secret access key from \$SK, which is not set/);
    assert.throws(build({ type: 'vertex', project: 'p', region: 'global', credentialsFileEnv: 'SA' }, { SA: '/nonexistent/sa.json' }), /Provider "c": the service-account file \/nonexistent\/sa.json \(from \$SA\) cannot be read \(ENOENT\)/);
    assert.throws(build({ type: 'azure', baseUrl: 'https://r.openai.azure.com', accessTokenEnv: 'TOKEN' }, {}), /Entra ID access token from \$TOKEN/);
  });
});

describe('CachedAccessToken', () => {
  test('fetches once for concurrent callers, reuses until the refresh margin, keeps a valid token if a refresh fails', async () => {
    let now = 1_000_000;
    let fetches = 0;
    let fail = false;
    const cache = new CachedAccessToken(async () => {
      fetches += 1;
      await new Promise((resolve) => setImmediate(resolve));
      if (fail) throw new Error('token endpoint down');
      return { token: `t${fetches}`, expiresAt: now + 3_600_000 };
    }, () => now);
    assert.deepEqual(await Promise.all([cache.get(), cache.get(), cache.get()]), ['t1', 't1', 't1']);
    now += 50 * 60_000;
    assert.equal(await cache.get(), 't1');
    assert.equal(fetches, 1);
    now += 6 * 60_000; // 4 minutes left: inside the margin
    assert.equal(await cache.get(), 't2');
    now += 56 * 60_000;
    fail = true;
    assert.equal(await cache.get(), 't2', 'still valid for four minutes');
    now += 5 * 60_000;
    await assert.rejects(cache.get(), /token endpoint down/);
  });
});

describe('event-stream reader', () => {
  const codec = new EventStreamCodec(toUtf8, fromUtf8);
  const message = (event: unknown) =>
    codec.encode({
      headers: { ':event-type': { type: 'string', value: 'chunk' }, ':message-type': { type: 'string', value: 'event' } },
      body: fromUtf8(JSON.stringify({ bytes: Buffer.from(JSON.stringify(event)).toString('base64') })),
    });
  const bytes = Buffer.concat([message({ type: 'message_start', message: { usage: { input_tokens: 3 } } }), message({ type: 'message_stop' })]);
  async function* cut(data: Buffer, size: number) {
    for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
  }
  const collect = async (iterable: AsyncIterable<Uint8Array>) => {
    let text = '';
    for await (const chunk of iterable) text += Buffer.from(chunk).toString('utf8');
    return text;
  };

  test('messages cut at any size come out whole, as messages-protocol SSE', async () => {
    for (const size of [1, 7, 64, bytes.length]) {
      assert.equal(await collect(bedrockStreamAsSse(cut(bytes, size))), 'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":3}}}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n');
    }
  });

  test('a flipped byte fails the CRC; a stream ending inside a message is an error', async () => {
    const corrupt = Buffer.from(bytes);
    corrupt[20] = corrupt[20]! ^ 0xff;
    await assert.rejects(collect(bedrockStreamAsSse(cut(corrupt, 16))), (e: Error) => e instanceof EventStreamFramingError && /corrupt/.test(e.message));
    await assert.rejects(async () => {
      for await (const _ of eventStreamMessages(cut(bytes.subarray(0, bytes.length - 5), 16))) void _;
    }, /ended inside a message/);
  });
});

describe('dropped features', () => {
  test('counted in the metrics on every drop, logged once per provider and name', async () => {
    const logged: string[] = [];
    onDroppedFeature((d) => logged.push(`${d.provider}:${d.name}`));
    const metrics = new GatewayMetrics({ pendingUsageBuckets: () => 0, usageFlushFailures: () => 0, databaseKeyLookups: () => 0, openResponses: () => 0, providersCooling: () => [] });
    for (let i = 0; i < 3; i += 1) noteDroppedFeature({ provider: 'units', kind: 'beta', name: 'some-beta-2099-01-01' });
    onDroppedFeature(undefined);
    assert.deepEqual(logged, ['units:some-beta-2099-01-01']);
    assert.match(await metrics.registry.metrics(), /gwctl_upstream_features_dropped_total\{provider="units",kind="beta",name="some-beta-2099-01-01"\} 3/);
  });
});
