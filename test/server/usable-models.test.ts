// A key that could use no model is refused with the reason, wherever it is created or changed: the
// owner's pages and JSON API, the operator API, and gwctl admin (the owner's list only: the CLI does
// not know which models the running gateway serves).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { checkUsableModels } from '../../server/limits/account-bound.ts';
import { bearer, createTestGateway, type TestGateway } from '../helpers/test-app.ts';
import { webLogin } from '../helpers/web-login.ts';

test('checkUsableModels: no served model, or no overlap with the account, is refused; a partial overlap passes', () => {
  const open = { models: null, budgets: { tokensDay: null, tokensMonth: null, requestsDay: null, requestsMonth: null, costDay: null, costMonth: null } };
  assert.throws(() => checkUsableModels(['gpt-x'], open, ['demo']), /serves none of gpt-x.*Served models: demo/);
  assert.throws(() => checkUsableModels(['demo'], { ...open, models: ['other'] }), /none in common.*Choose among other/);
  assert.doesNotThrow(() => checkUsableModels(['demo', 'gpt-x'], { ...open, models: ['demo'] }, ['demo']));
  assert.doesNotThrow(() => checkUsableModels(null, { ...open, models: ['demo'] }, ['demo']));
});

describe('keys that could use nothing', () => {
  let gateway: TestGateway;
  let token: string;
  before(async () => {
    gateway = await createTestGateway();
    const user = await gateway.store.users.create('lee', 'password-123');
    await gateway.store.users.setLimits(user.id, { models: ['demo-chat'] });
    token = (await gateway.store.operatorTokens.create('t')).token;
  });
  after(() => gateway?.close());

  test('operator API: create and update refused with 400 and the reason', async () => {
    const unserved = await gateway.text.inject({ method: 'POST', url: '/admin/api/v1/keys', headers: bearer(token), payload: { user: 'lee', models: ['no-such-model'] } });
    assert.equal(unserved.statusCode, 400, unserved.payload);
    assert.match(unserved.json().error.message, /serves none of no-such-model/);
    const ok = await gateway.text.inject({ method: 'POST', url: '/admin/api/v1/keys', headers: bearer(token), payload: { user: 'lee', models: ['demo-chat'] } });
    assert.equal(ok.statusCode, 201, ok.payload);
    const patch = await gateway.text.inject({ method: 'PATCH', url: `/admin/api/v1/keys/${ok.json().id}`, headers: bearer(token), payload: { models: ['demo-embedding'] } });
    assert.equal(patch.statusCode, 400);
    assert.match(patch.json().error.message, /none in common/);
  });

  test('web JSON API: a model list the gateway does not serve is refused', async () => {
    await gateway.store.users.create('max', 'password-123');
    const login = await webLogin(gateway.text, 'max');
    const res = await gateway.text.inject({ method: 'POST', url: '/web/api/keys', headers: { cookie: login.cookie, 'x-csrf-token': login.csrf }, payload: { models: 'nope' } });
    assert.equal(res.statusCode, 400, res.payload);
    assert.match(res.json().error.message, /serves none of nope/);
  });
});
