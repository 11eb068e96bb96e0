// Model allowlists of identity-provider groups: a person may use the models of their groups (the
// union), narrowed further by their own list; a model outside the allowlist is refused on every
// credential (key or sign-in token); a change reaches cached credentials at once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deleteGroupModels, setGroupModels } from '../../server/accounts/group-changes.ts';
import { modelsForGroups, narrowedByGroups, withFileGroups } from '../../server/accounts/group-models.ts';
import { parseGatewayConfig } from '../../server/config/gateway-file.ts';
import { NO_USER_LIMITS } from '../../server/limits/key-limits.ts';
import { createTestGateway, type TestGateway } from '../helpers/test-app.ts';

const actor = { actor: 'cli:test', address: 'local' };

describe('group model allowlists', () => {
  let gw: TestGateway;
  let key: string;
  let userId: string;

  before(async () => {
    gw = await createTestGateway();
    ({ key, userId } = await gw.userWithKey('erin'));
    await gw.store.identities.link('https://idp.test', 'erin-sub', userId, ['engineering', 'all-staff'], new Date());
  });
  after(() => gw.close());

  const chat = (model: string) =>
    gw.text.inject({ method: 'POST', url: '/v1/chat/completions', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, payload: { model, messages: [{ role: 'user', content: 'hi' }] } });

  it('unions the allowlists of the groups that have one, and never widens the account’s own list', () => {
    const policies = [
      { name: 'engineering', models: ['a', 'b'], updatedAt: '' },
      { name: 'sales', models: ['c'], updatedAt: '' },
    ];
    assert.deepEqual(modelsForGroups(['engineering', 'sales'], policies), ['a', 'b', 'c']);
    assert.equal(modelsForGroups(['support'], policies), null, 'no listed group: no restriction');
    assert.deepEqual(narrowedByGroups({ ...NO_USER_LIMITS, models: ['b', 'z'] }, ['a', 'b']).models, ['b']);
    assert.deepEqual(narrowedByGroups(NO_USER_LIMITS, null), NO_USER_LIMITS);
  });

  it('takes groups from the providers file; an entry set in the database wins', () => {
    const config = parseGatewayConfig('providers.yaml', {
      providers: [{ name: 'demo', type: 'demo', models: ['demo-chat'] }],
      groups: [{ name: 'engineering', models: ['demo-chat'] }, { name: 'sales', models: ['x'] }],
    });
    assert.deepEqual(config.groups.map((g) => [g.name, g.models]), [['engineering', ['demo-chat']], ['sales', ['x']]]);
    const merged = withFileGroups([{ name: 'sales', models: ['y'], updatedAt: '' }], config.groups);
    assert.deepEqual(modelsForGroups(['sales'], merged), ['y']);
    assert.deepEqual(modelsForGroups(['engineering'], merged), ['demo-chat']);
    assert.throws(() => parseGatewayConfig('providers.yaml', { providers: [{ name: 'demo', type: 'demo' }], groups: [{ name: 'a', models: [] }] }), /groups\[0\]\.models must be a non-empty list/);
    assert.throws(() => parseGatewayConfig('providers.yaml', { providers: [{ name: 'demo', type: 'demo' }], groups: [{ name: 'a', models: ['m'] }, { name: 'a', models: ['m'] }] }), /repeats "a"/);
  });

  it('refuses a model outside the group allowlist at once, and lifts it when the allowlist goes', async () => {
    assert.equal((await chat('demo-chat')).statusCode, 200, 'cached without restriction first');
    const { members } = await setGroupModels(gw.store, 'engineering', ['demo-embedding'], actor);
    assert.deepEqual(members, [userId]);
    for (const id of members) gw.deps.authenticator.revoke({ kind: 'user', id });
    const refused = await chat('demo-chat');
    assert.equal(refused.statusCode, 403);
    assert.match(refused.payload, /model_not_allowed/);
    assert.match(refused.payload, /demo-embedding/);
    const removed = await deleteGroupModels(gw.store, 'engineering', actor);
    for (const id of removed.members) gw.deps.authenticator.revoke({ kind: 'user', id });
    assert.equal((await chat('demo-chat')).statusCode, 200);
    const audit = await gw.store.audit.list({ limit: 10 });
    assert.ok(audit.some((e) => e.action === 'group.set' && e.target === 'group:engineering'));
    assert.ok(audit.some((e) => e.action === 'group.delete'));
  });
});
