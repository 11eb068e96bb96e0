// The operator API on the built gateway with a token made by `gwctl admin token create` (another
// process, same database): refused without it, works with it, refused again once revoked; the key
// value appears in the create answer only, never in the gateway's logs.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { GatewayProcess, isolateClientEnvironment } from '../helpers/gateway-process.ts';

describe('operator API on the built gateway', () => {
  let gateway: GatewayProcess;
  let token: { id: string; token: string };
  let restoreEnv: () => void;

  before(async () => {
    restoreEnv = isolateClientEnvironment();
    gateway = await GatewayProcess.start();
    token = await gateway.adminJson(['token', 'create', '--name', 'e2e']);
  });

  after(async () => {
    await gateway?.cleanup();
    restoreEnv?.();
  });

  const api = (method: string, path: string, body?: object, auth: string | null = token.token) =>
    fetch(`${gateway.textUrl}/admin/api/v1${path}`, {
      method,
      headers: { ...(auth ? { authorization: `Bearer ${auth}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });

  test('a created key works through the SDK; the value is only in the create answer and never in the logs', async () => {
    assert.equal((await api('GET', '/users', undefined, null)).status, 401);
    const created = await api('POST', '/keys', { user: 'admin', name: 'from-api', models: ['demo-chat'] });
    assert.equal(created.status, 201);
    const key = (await created.json()) as { id: string; key: string };
    const client = new OpenAI({ baseURL: `${gateway.textUrl}/v1`, apiKey: key.key, maxRetries: 0 });
    assert.deepEqual((await client.models.list()).data.map((m) => m.id), ['demo-chat']);
    const listed = await (await api('GET', '/keys')).text();
    assert.ok(!listed.includes(key.key));
    assert.equal((await api('DELETE', `/keys/${key.id}`)).status, 204);
    const error = await client.models.list().then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof OpenAI.AuthenticationError);
    const openapi = await fetch(`${gateway.textUrl}/admin/api/openapi.json`);
    assert.equal(((await openapi.json()) as { openapi: string }).openapi, '3.1.0');
    assert.ok(!`${gateway.stdout}${gateway.stderr}`.includes(key.key), 'no key value in the logs');
    assert.ok(!`${gateway.stdout}${gateway.stderr}`.includes(token.token), 'no operator token in the logs');
  });

  test('gwctl admin token revoke: the next call is refused', async () => {
    assert.equal((await gateway.admin(['token', 'revoke', token.id])).code, 0);
    const refused = await api('GET', '/users');
    assert.equal(refused.status, 401);
    assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'invalid_operator_token');
  });
});
