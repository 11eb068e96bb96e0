// The usage page shows the owner's usage per client session (ids sent by clients such as coding
// agents), and only the owner's; no request content appears.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { bearer, createTestGateway, type TestGateway } from '../../helpers/test-app.ts';

let gw: TestGateway;
before(async () => {
  gw = await createTestGateway();
});
after(() => gw.close());

async function sessionCookie(username: string): Promise<string> {
  const page = await gw.text.inject({ url: '/login' });
  const token = /name="_csrf" value="([^"]+)"/.exec(page.payload)![1]!;
  const csrf = String(page.headers['set-cookie']).split(';')[0]!;
  const res = await gw.text.inject({
    method: 'POST',
    url: '/login',
    headers: { cookie: csrf, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ _csrf: token, username, password: 'password-123', next: '/usage' }).toString(),
  });
  assert.equal(res.statusCode, 303, res.payload);
  const cookies = [res.headers['set-cookie']].flat().map(String);
  return cookies.find((c) => c.startsWith('gw_session='))!.split(';')[0]!;
}

async function ask(key: string, session: string | undefined, prompt: string): Promise<void> {
  const res = await gw.text.inject({
    method: 'POST',
    url: '/v1/messages',
    headers: { ...bearer(key), 'content-type': 'application/json', ...(session ? { 'x-claude-code-session-id': session } : {}) },
    payload: JSON.stringify({ model: 'demo-chat', max_tokens: 16, messages: [{ role: 'user', content: prompt }] }),
  });
  assert.equal(res.statusCode, 200, res.payload);
}

test('per client session: each named session with its requests; other users and unnamed requests are not listed', async () => {
  const alice = await gw.userWithKey('alice');
  const bob = await gw.userWithKey('bob');
  await ask(alice.key, 'alice-session-1', 'secret prompt one');
  await ask(alice.key, 'alice-session-1', 'secret prompt two');
  await ask(alice.key, undefined, 'no session');
  await ask(alice.key, 'bad session id with spaces', 'ignored id');
  await ask(bob.key, 'bob-session-9', 'bob asks');

  const page = await gw.text.inject({ url: '/usage', headers: { cookie: await sessionCookie('alice') } });
  assert.equal(page.statusCode, 200);
  const section = page.payload.slice(page.payload.indexOf('Per client session'));
  // Long names are cut in the cell and shown whole on hover and focus (span.clip with a title).
  const row = /<tr><td><span class="clip" tabindex="0" title="[^"]*">alice-session-1 · alice-key sk-…\w{4}<\/span><\/td><td class="num">(\d+)<\/td>/.exec(section);
  assert.ok(row, section.slice(0, 800));
  assert.equal(row[1], '2');
  assert.ok(!section.includes('bob-session-9'), "another user's session is not shown");
  assert.ok(!section.includes('bad session id'), 'an id that is not id-like is not recorded');
  assert.ok(!page.payload.includes('secret prompt'), 'no request content');
});
