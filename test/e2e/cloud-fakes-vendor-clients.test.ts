// The cloud fakes the gateway's tests rely on, proven against the vendors' own clients: AWS's
// Bedrock runtime client signs its requests (the fake recomputes every signature), gets JSON and
// parses the fake's event streams and errors; google-auth-library gets a token from the Vertex fake's
// token endpoint (which checks the JWT's signature with the account's public key), and @google/genai
// in Vertex mode calls it with that token; the openai SDK's AzureOpenAI client (legacy deployments)
// and the OpenAI client on /openai/v1 call the Azure fake.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { BedrockRuntimeClient, InvokeModelCommand, InvokeModelWithResponseStreamCommand } from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { FakeBedrock } from '../helpers/cloud/fake-bedrock.ts';

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
