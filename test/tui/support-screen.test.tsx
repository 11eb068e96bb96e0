// The Support screen against a real gateway (its operator API on loopback, the real undici client):
// a request id a user reported gives the cause and both remedies, a masked key gives the key's
// state, a support bundle file gives one verdict; without an operator token it says how to get one.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { undiciGet } from '../../core/client/undici-http-get.ts';
import { undiciPost } from '../../core/proxy/http-post.ts';
import { bearer, createTestGateway, type TestGateway } from '../helpers/test-app.ts';
import { flat, KEY, machinesForThisFile, renderApp } from './tui-harness.tsx';

const setup = machinesForThisFile();
let gateway: TestGateway;
let url: string;
let token: string;
let deletedRequestId: string;
let hint: string;

before(async () => {
  gateway = await createTestGateway({ requestLog: true });
  url = await gateway.text.listen({ host: '127.0.0.1', port: 0 });
  token = (await gateway.store.operatorTokens.create('support')).token;
  const { key, keyId } = await gateway.userWithKey('alice');
  hint = `sk-…${key.slice(-4)}`;
  await gateway.store.keys.deleteById(keyId);
  const refused = await gateway.text.inject({ method: 'POST', url: '/v1/chat/completions', headers: bearer(key), payload: { model: 'demo-chat', messages: [{ role: 'user', content: 'hi' }] } });
  deletedRequestId = String(refused.headers['x-request-id']);
  await gateway.deps.requestLog!.flush();
});
after(() => gateway.close());

function support(env: NodeJS.ProcessEnv) {
  const m = setup({ env: { GWCTL_BASE_URL: url, ...env } });
  m.deps.http = undiciGet;
  m.deps.post = undiciPost;
  return m;
}

async function openSupport(app: ReturnType<typeof renderApp>) {
  await app.waitFor('8 Support');
  await app.press('8');
  await app.waitFor('gwctl › Support', 'Look up:');
}

test('a request id: the cause, the facts and both remedies; e starts a new lookup by masked key', async () => {
  const { deps } = support({ GWCTL_OPERATOR_TOKEN: token });
  const app = renderApp(deps, { size: { columns: 120, rows: 40 } });
  await openSupport(app);
  await app.press(KEY.enter, deletedRequestId, KEY.enter);
  const frame = flat(await app.waitFor('KEY_DELETED', 'Tell the user:'));
  assert.match(frame, /of alice was deleted at/);
  assert.match(frame, new RegExp(`By hand: \\$ gwctl admin request ${deletedRequestId}`));
  await app.press('e', KEY.ctrlU, hint, KEY.enter);
  const keyFrame = flat(await app.waitFor('DELETED', '1 × KEY_DELETED'));
  assert.match(keyFrame, /alice/);
  assert.ok(app.frames.every((f) => !f.includes(token)), 'the operator token is never shown');
  app.unmount();
});

test('a support bundle file: one verdict; no token: what to do', async () => {
  const { deps, sandbox } = support({ GWCTL_OPERATOR_TOKEN: token });
  const file = join(sandbox.home, 'bundle.json');
  writeFileSync(file, JSON.stringify({ schemaVersion: 1, kind: 'gwctl-support-bundle', createdAt: new Date().toISOString(), checks: [], verdict: { cause: 'KEY_REJECTED' }, requestIds: [deletedRequestId] }));
  const app = renderApp(deps, { size: { columns: 120, rows: 40 } });
  await openSupport(app);
  await app.press(KEY.enter, file, KEY.enter);
  assert.match(flat(await app.waitFor('KEY_DELETED', 'decided by what the gateway recorded')), /1 request\(s\) found/);
  app.unmount();

  const none = support({ GWCTL_OPERATOR_TOKEN: undefined });
  const bare = renderApp(none.deps, { size: { columns: 120, rows: 40 } });
  await openSupport(bare);
  await bare.press(KEY.enter, deletedRequestId, KEY.enter);
  assert.match(flat(await bare.waitFor('GWCTL_OPERATOR_TOKEN is not set')), /gwctl admin token create --name support/);
  bare.unmount();
});
