// A model alias keeps the name the client asked for in the request log and in usage, beside the
// model that served it; a request by a served name has no requested name.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { runCli } from '../../cli/run-cli.ts';
import { createTestGateway } from '../helpers/test-app.ts';
import { webLogin } from '../helpers/web-login.ts';

const gw = await createTestGateway({ aliases: [{ name: 'claude-opus-*', model: 'demo-chat' }], requestLog: true });
after(() => gw.close());

test('the request log keeps claude-opus-4-8 beside demo-chat; demo-chat asked by name has none', async () => {
  const { userId, key } = await gw.userWithKey();
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' };
  for (const model of ['claude-opus-4-8', 'demo-chat']) {
    const answer = await gw.text.inject({ method: 'POST', url: '/v1/messages', headers, payload: { model, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] } });
    assert.equal(answer.statusCode, 200, answer.body);
  }
  await gw.deps.requestLog!.flush();
  const rows = await gw.store.requestLog.list({ userId, limit: 10 });
  // Newest first.
  assert.deepEqual(rows.map((r) => [r.model, r.requestedModel]), [['demo-chat', null], ['demo-chat', 'claude-opus-4-8']]);
});

test('usage counts the aliased requests by the name asked for: admin usage and /usage show it', async () => {
  const { key, userId } = await gw.userWithKey('alias-user');
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' };
  for (const model of ['claude-opus-4-8', 'claude-opus-4-8', 'claude-opus-5', 'demo-chat']) {
    const answer = await gw.text.inject({ method: 'POST', url: '/v1/messages', headers, payload: { model, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] } });
    assert.equal(answer.statusCode, 200, answer.body);
  }
  await gw.deps.usage.flush();
  const rows = await gw.store.usage.requestedModels({ userId });
  const counts = Object.fromEntries(rows.map((r) => [`${r.requestedModel} → ${r.model}`, r.count]));
  assert.deepEqual(counts, { 'claude-opus-4-8 → demo-chat': 2, 'claude-opus-5 → demo-chat': 1 }, JSON.stringify(rows));

  let out = '';
  const code = await runCli(['admin', 'usage', '--user', 'alias-user', '--json', '--database-url', gw.databaseUrl], { stdout: (t) => void (out += t), stderr: () => undefined, env: { HOME: gw.dataDir }, readStdin: async () => '' });
  assert.equal(code, 0);
  const usage = JSON.parse(out) as { rows: Array<{ model: string; requests: number; requestedAs: Record<string, number> }> };
  assert.deepEqual(usage.rows.map((r) => [r.model, r.requests, r.requestedAs]), [['demo-chat', 4, { 'claude-opus-4-8': 2, 'claude-opus-5': 1 }]]);

  const login = await webLogin(gw.text, 'alias-user');
  const page = await gw.text.inject({ url: '/usage', headers: { cookie: login.cookie } });
  assert.match(page.payload, /id="asked-as">Asked for under another name and answered by a served model \(model aliases\): 2 × claude-opus-4-8 → demo-chat; 1 × claude-opus-5 → demo-chat\./);
});
