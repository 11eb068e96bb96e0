// GET /managed/settings as Claude Code's gateway sign-in reads it: the {uuid, checksum, settings}
// envelope with the person's availableModels, ETag and If-None-Match → 304, 404 without a policy,
// refused without a valid credential, never counted as usage.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setGroupModels } from '../../server/accounts/group-changes.ts';
import { createTestGateway, type TestGateway } from '../helpers/test-app.ts';

describe('managed settings for Claude Code', () => {
  let gw: TestGateway;
  let key: string;
  let userId: string;

  before(async () => {
    gw = await createTestGateway({ settings: { claudeManagedSettings: undefined } });
    ({ key, userId } = await gw.userWithKey('pat'));
  });
  after(() => gw.close());

  const get = (headers: Record<string, string>) => gw.text.inject({ url: '/managed/settings', headers });

  it('answers 404 when nothing applies, and 401 without a valid credential', async () => {
    assert.equal((await get({ authorization: `Bearer ${key}` })).statusCode, 404);
    assert.equal((await get({})).statusCode, 401);
    assert.equal((await get({ authorization: 'Bearer gwa-unknown' })).statusCode, 401);
  });

  it('serves the envelope with the person’s models; the same policy answers 304', async () => {
    await gw.store.identities.link('https://idp.test', 'pat', userId, ['engineering'], new Date());
    const { members } = await setGroupModels(gw.store, 'engineering', ['demo-chat'], { actor: 'cli:test', address: 'local' });
    for (const id of members) gw.deps.authenticator.revoke({ kind: 'user', id });
    const res = await get({ 'x-api-key': key });
    assert.equal(res.statusCode, 200);
    const envelope = res.json();
    assert.match(envelope.checksum, /^sha256:[0-9a-f]{64}$/);
    assert.equal(envelope.uuid, envelope.checksum);
    assert.deepEqual(envelope.settings, { availableModels: ['demo-chat'] });
    assert.equal(res.headers.etag, `"${envelope.checksum}"`);
    const again = await get({ authorization: `Bearer ${key}`, 'if-none-match': String(res.headers.etag) });
    assert.equal(again.statusCode, 304);
    assert.equal(again.payload, '');
    await gw.deps.usage.flush();
    assert.deepEqual(await gw.store.usage.rows({}), [], 'reading the policy is no request to count');
  });

  it('merges the operator’s base document', async () => {
    gw.deps.settings.claudeManagedSettings = { permissions: { deny: ['WebFetch'] }, availableModels: ['ignored'] };
    const res = await get({ authorization: `Bearer ${key}` });
    assert.deepEqual(res.json().settings, { permissions: { deny: ['WebFetch'] }, availableModels: ['demo-chat'] });
    gw.deps.settings.claudeManagedSettings = undefined;
  });
});
