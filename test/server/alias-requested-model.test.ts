// A model alias keeps the name the client asked for in the request log, beside the model that
// served it; a request by a served name has no requested name.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { createTestGateway } from '../helpers/test-app.ts';

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
