// Which account a provider sign-in becomes: created once and found again by subject, named from
// the claims without ever taking a local account's name, its role following its groups (audited),
// and refused when disabled or deleted at the gateway.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { accountForSignIn, roleFromGroups } from '../../server/oidc/oidc-account.ts';
import type { OidcSettings } from '../../server/oidc/oidc-settings.ts';
import { createTestGateway, type TestGateway } from '../helpers/test-app.ts';

const settings: OidcSettings = { issuer: 'https://idp.test', clientId: 'gw', groupsClaim: 'roles', adminGroups: ['ops'], viewerGroups: ['audit'] };

describe('accounts from provider sign-ins', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await createTestGateway();
    await gw.store.users.create('sam', 'password-123', { role: 'operator' });
  });
  after(() => gw.close());

  it('maps groups to roles: admin groups win over viewer groups', () => {
    assert.equal(roleFromGroups(['audit', 'ops'], settings), 'operator');
    assert.equal(roleFromGroups(['audit'], settings), 'viewer');
    assert.equal(roleFromGroups([], settings), 'member');
  });

  it('creates the account once, named from the claims, never as a local account', async () => {
    const first = await accountForSignIn(gw.deps, settings, { sub: 'abc', preferred_username: 'sam', roles: ['audit'] });
    assert.ok(first.ok && first.created);
    assert.equal(first.ok && first.user.username, 'sam-2', 'the local "sam" is not taken over');
    assert.equal(first.ok && first.user.role, 'viewer');
    const again = await accountForSignIn(gw.deps, settings, { sub: 'abc', preferred_username: 'sam', roles: ['audit'] });
    assert.ok(again.ok && !again.created && again.user.username === 'sam-2');
    const byEmail = await accountForSignIn(gw.deps, settings, { sub: 'x-1', email: 'kim@example.test' });
    assert.equal(byEmail.ok && byEmail.user.username, 'kim@example.test');
    const bySub = await accountForSignIn(gw.deps, settings, { sub: 'only sub!' });
    assert.equal(bySub.ok && bySub.user.username, 'only-sub-');
  });

  it('follows the groups at every sign-in and audits the change', async () => {
    const promoted = await accountForSignIn(gw.deps, settings, { sub: 'abc', roles: ['ops'] });
    assert.equal(promoted.ok && promoted.user.role, 'operator');
    assert.equal((await gw.store.users.findByName('sam-2'))!.isAdmin, true);
    const audit = await gw.store.audit.list({ action: 'user.role' });
    assert.ok(audit.some((e) => e.target === 'user:sam-2' && e.actor === 'oidc:abc'));
  });

  it('refuses an account disabled or deleted at the gateway', async () => {
    const user = (await gw.store.users.findByName('kim@example.test'))!;
    await gw.store.users.setDisabled(user.id, true);
    const disabled = await accountForSignIn(gw.deps, settings, { sub: 'x-1', email: 'kim@example.test' });
    assert.equal(disabled.ok, false);
    assert.match(!disabled.ok ? disabled.reason : '', /disabled/);
    await gw.store.users.delete(user.id);
    const deleted = await accountForSignIn(gw.deps, settings, { sub: 'x-1', email: 'kim@example.test' });
    assert.equal(deleted.ok, false, 'not created again as a fresh account');
    assert.match(!deleted.ok ? deleted.reason : '', /removed/);
  });
});
