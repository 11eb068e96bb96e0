import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { ModelInfo, Operation, Provider, ProviderRequest, ProviderResponse } from '../../server/providers/provider.ts';
import { bearer, createTestGateway, type TestGateway } from '../helpers/test-app.ts';

/** A provider that answers whatever the test queued, in the chat-completions protocol. */
class ScriptedProvider implements Provider {
  readonly name = 'scripted';
  readonly type = 'openai';
  readonly models: ModelInfo[] = [{ id: 'scripted-model', upstreamModel: 'scripted-model', kind: 'text', created: 0 }];
  next: ProviderResponse | undefined;
  supports(operation: Operation): boolean {
    return operation === 'chat';
  }
  async send(_request: ProviderRequest): Promise<ProviderResponse> {
    return this.next!;
  }
  async close(): Promise<void> {}
}

async function* bytes(text: string): AsyncIterable<Uint8Array> {
  yield Buffer.from(text);
}

const provider = new ScriptedProvider();
let gw: TestGateway;
let key: string;
before(async () => {
  gw = await createTestGateway({ providers: [provider] });
  ({ key } = await gw.userWithKey());
});
after(() => gw.close());

const ask = () => gw.text.inject({ method: 'POST', url: '/v1/chat/completions', headers: bearer(key), payload: { model: 'scripted-model', messages: [{ role: 'user', content: 'x' }] } });

test('an upstream 401 (the provider refused the gateway’s key) is a 502 that says the caller’s key is fine', async () => {
  provider.next = { status: 401, headers: { 'content-type': 'application/json' }, body: bytes('{"error":{"message":"Incorrect API key","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}') };
  const res = await ask();
  assert.equal(res.statusCode, 502);
  assert.equal(res.json().error.code, 'upstream_auth_failed');
  assert.match(res.json().error.message, /Your key is fine/);
});

test('an upstream 429 keeps its body and its Retry-After', async () => {
  const body = '{"error":{"message":"slow down","type":"rate_limit_error","param":null,"code":null}}';
  provider.next = { status: 429, headers: { 'content-type': 'application/json', 'retry-after': '17' }, body: bytes(body) };
  const res = await ask();
  assert.equal(res.statusCode, 429);
  assert.equal(res.headers['retry-after'], '17');
  assert.equal(res.payload, body);
});

test('an upstream 5xx with a non-JSON body is wrapped in the route shape with the status kept', async () => {
  provider.next = { status: 503, headers: { 'content-type': 'text/html' }, body: bytes('<html>Service Unavailable</html>') };
  const res = await ask();
  assert.equal(res.statusCode, 503);
  assert.equal(res.json().error.code, 'upstream_error');
  assert.match(res.json().error.message, /answered 503: <html>Service Unavailable<\/html>/);
});
