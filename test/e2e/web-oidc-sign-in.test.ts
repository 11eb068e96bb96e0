// Single sign-on of the console against a real OpenID provider (oidc-provider on loopback), driven
// through the provider's own login and consent pages in headless Chromium: people land as operator
// or member by group, accounts are created on the first sign-in, and every failed check (wrong
// state, replayed code, a sign-in not started in this browser, an account disabled at the gateway)
// answers 400/403 with what went wrong and creates no session. Local passwords can be turned off.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { launchBrowser, type TestBrowser } from '../helpers/browser.ts';
import { startTogether } from '../helpers/start-together.ts';
import { GatewayProcess } from '../helpers/gateway-process.ts';
import { startTestProvider, type TestProvider } from '../helpers/oidc-test-provider.ts';

let idp: TestProvider;
let gateway: GatewayProcess;
let browser: TestBrowser;

before(async () => {
  idp = await startTestProvider([
    { sub: 'olivia', preferred_username: 'olivia', email: 'olivia@example.test', groups: ['gateway-operators', 'engineering'] },
    { sub: 'mark', preferred_username: 'mark', email: 'mark@example.test', groups: ['engineering'] },
    { sub: 'u-9f2', email: 'nina@example.test', groups: [] },
    { sub: 'admin-impostor', preferred_username: 'admin', groups: [] },
  ]);
  [gateway, browser] = await startTogether(
    GatewayProcess.start({
      extraArgs: ['--oidc-issuer', idp.issuer, '--oidc-client-id', idp.clientId, '--oidc-admin-groups', 'gateway-operators', '--oidc-name', 'Test IdP'],
      env: { GWCTL_OIDC_CLIENT_SECRET: idp.clientSecret },
    }),
    launchBrowser(),
  );
  idp.configure(`${gateway.textUrl}/login/oidc/callback`);
});
after(async () => {
  await Promise.all([gateway?.cleanup(), browser?.close()]);
  await idp?.close();
});

/** From the gateway's login page through the provider's login and consent pages, back to the gateway. */
async function signInAtProvider(page: Page, login: string): Promise<void> {
  await page.goto(`${gateway.textUrl}/login`);
  await page.click('#sign-in-oidc');
  // The provider's login page (unless this browser is still signed in there), its consent page
  // (first authorization of this client in this browser), then back to the gateway.
  const deadline = Date.now() + 60_000;
  let loggedIn = false;
  for (;;) {
    const url = new URL(page.url());
    if (!loggedIn && (await page.locator('input[name="login"]').count().catch(() => 0))) {
      await page.fill('input[name="login"]', login);
      await page.fill('input[name="password"]', 'any-password');
      await page.click('button[type="submit"]');
      loggedIn = true;
      continue;
    }
    if (url.origin === gateway.textUrl && url.pathname !== '/login') {
      await page.waitForLoadState('load');
      break;
    }
    if (Date.now() > deadline) throw new Error(`the sign-in did not come back to the gateway; the browser is at ${page.url()}`);
    if (await page.locator('input[name="prompt"][value="consent"]').count().catch(() => 0)) await page.click('button[type="submit"]').catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Through the provider's consent page if it asks, until the browser is back on /device. */
async function waitForDevicePage(page: Page): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(new URL(page.url()).origin === gateway.textUrl && new URL(page.url()).pathname === '/device' && (await page.locator('#device-approve').count()))) {
    if (Date.now() > deadline) throw new Error(`not back on /device; the browser is at ${page.url()}`);
    if (await page.locator('input[name="prompt"][value="consent"]').count().catch(() => 0)) await page.click('button[type="submit"]').catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function newContext(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.browser.newContext();
  return { context, page: await context.newPage() };
}

async function sessionCookie(context: BrowserContext): Promise<string | undefined> {
  return (await context.cookies(gateway.textUrl)).find((c) => c.name === 'gw_session')?.value;
}

describe('console single sign-on', { concurrency: 1 }, () => {
  test('the login page offers the provider; an operator group lands as operator, created on first sign-in', async () => {
    const { context, page } = await newContext();
    await page.goto(`${gateway.textUrl}/login`);
    assert.match((await page.textContent('#sign-in-oidc')) ?? '', /Sign in with Test IdP/);
    await signInAtProvider(page, 'olivia');
    assert.equal(new URL(page.url()).pathname, '/apps/chat');
    const admin = await page.goto(`${gateway.textUrl}/admin`);
    assert.equal(admin!.status(), 200, 'an operator sees /admin');
    const users = await gateway.adminJson<Array<{ username: string; isAdmin: boolean; role?: string }>>(['user', 'list']);
    const olivia = users.find((u) => u.username === 'olivia');
    assert.ok(olivia?.isAdmin, 'created as operator from the group');
    await context.close();
  });

  test('a member group lands as member; a person without a name is named by email', async () => {
    const { context, page } = await newContext();
    await signInAtProvider(page, 'mark');
    const admin = await page.goto(`${gateway.textUrl}/admin`);
    assert.notEqual(admin!.status(), 200, 'a member does not see /admin');
    await context.close();
    const nina = await newContext();
    await signInAtProvider(nina.page, 'u-9f2');
    const users = await gateway.adminJson<Array<{ username: string; isAdmin: boolean }>>(['user', 'list']);
    assert.ok(users.some((u) => u.username === 'nina@example.test' && !u.isAdmin));
    await nina.context.close();
  });

  test('a provider name that matches a local account never takes it over', async () => {
    const { context, page } = await newContext();
    await signInAtProvider(page, 'admin-impostor');
    const admin = await page.goto(`${gateway.textUrl}/admin`);
    assert.notEqual(admin!.status(), 200, 'not the local operator "admin"');
    const users = await gateway.adminJson<Array<{ username: string }>>(['user', 'list']);
    assert.ok(users.some((u) => u.username === 'admin-2'));
    await context.close();
  });

  test('wrong state, a replayed callback and a replayed code answer 400 and create no session', async () => {
    // Wrong state: the browser starts a sign-in (the gateway keeps its state in a cookie), but the
    // provider is sent a forged state, which comes back on the callback.
    const { context, page } = await newContext();
    const begun = await context.request.get(`${gateway.textUrl}/login/oidc`, { maxRedirects: 0 });
    assert.equal(begun.status(), 302);
    const authorize = new URL(begun.headers().location!);
    assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');
    assert.ok(authorize.searchParams.get('nonce'));
    const genuineState = authorize.searchParams.get('state')!;
    authorize.searchParams.set('state', 'forged-state');
    const callbacks: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/login/oidc/callback')) callbacks.push(request.url());
    });
    await page.goto(authorize.toString());
    await page.fill('input[name="login"]', 'mark');
    await page.fill('input[name="password"]', 'any-password');
    await page.click('button[type="submit"]');
    await page.waitForSelector('#sign-in-failed, input[name="prompt"][value="consent"]', { state: 'attached', timeout: 60_000 });
    if (await page.locator('input[name="prompt"][value="consent"]').count()) {
      await Promise.all([page.waitForSelector('#sign-in-failed', { timeout: 60_000 }), page.click('button[type="submit"]')]);
    }
    assert.match((await page.textContent('#sign-in-failed')) ?? '', /state/i);
    assert.equal(await sessionCookie(context), undefined);

    // The pending sign-in was spent by the failed check: the callback with the genuine state fails too.
    const genuine = new URL(callbacks.at(-1)!);
    genuine.searchParams.set('state', genuineState);
    const spent = await page.goto(genuine.toString());
    assert.equal(spent!.status(), 400);
    assert.match((await page.textContent('#sign-in-failed')) ?? '', /not started in this browser|already used/);
    assert.equal(await sessionCookie(context), undefined);
    await context.close();

    // A replayed code: a code the gateway already exchanged, brought back with a fresh sign-in's state.
    const first = await newContext();
    const used: string[] = [];
    first.page.on('request', (request) => {
      if (request.url().includes('/login/oidc/callback')) used.push(request.url());
    });
    await signInAtProvider(first.page, 'mark');
    assert.ok(await sessionCookie(first.context), 'the genuine sign-in worked');
    await first.context.close();
    const other = await newContext();
    const fresh = new URL((await other.context.request.get(`${gateway.textUrl}/login/oidc`, { maxRedirects: 0 })).headers().location!);
    const replayed = new URL(`${gateway.textUrl}/login/oidc/callback`);
    replayed.searchParams.set('code', new URL(used.at(-1)!).searchParams.get('code')!);
    replayed.searchParams.set('state', fresh.searchParams.get('state')!);
    const replay = await other.page.goto(replayed.toString());
    assert.equal(replay!.status(), 400);
    assert.match((await other.page.textContent('#sign-in-failed')) ?? '', /refused the sign-in code/);
    assert.equal(await sessionCookie(other.context), undefined);
    await other.context.close();
  });

  test('a device sign-in approved after signing in through the provider: /device → provider → back to /device with the code', async () => {
    const start = await fetch(`${gateway.textUrl}/oauth/device_authorization`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'client_id=claude-code-test' });
    const device = (await start.json()) as { device_code: string; user_code: string; verification_uri_complete: string };
    const { context, page } = await newContext();
    await page.goto(device.verification_uri_complete);
    assert.equal(new URL(page.url()).pathname, '/login');
    await page.click('#sign-in-oidc');
    await page.waitForSelector('input[name="login"]', { timeout: 60_000 });
    await page.fill('input[name="login"]', 'olivia');
    await page.fill('input[name="password"]', 'any-password');
    await page.click('button[type="submit"]');
    await waitForDevicePage(page);
    assert.equal(new URL(page.url()).searchParams.get('user_code'), device.user_code, 'back on /device with the code');
    assert.match((await page.textContent('#device-client')) ?? '', /claude-code-test/);
    await page.click('#device-approve');
    await page.waitForSelector('#device-result', { timeout: 60_000 });
    await context.close();
    const res = await fetch(`${gateway.textUrl}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: device.device_code }) });
    assert.equal(res.status, 200);
    const tokens = (await res.json()) as { access_token: string };
    const models = await fetch(`${gateway.textUrl}/v1/models`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    assert.equal(models.status, 200);
    await models.arrayBuffer();
  });

  test('an account disabled at the gateway is refused although the provider signs it in', async () => {
    const disabled = await gateway.admin(['user', 'disable', 'mark']);
    assert.equal(disabled.code, 0, disabled.stderr);
    const { context, page } = await newContext();
    const response = page.waitForResponse((r) => r.url().includes('/login/oidc/callback'), { timeout: 60_000 });
    await signInAtProvider(page, 'mark');
    assert.equal((await response).status(), 403);
    assert.match((await page.textContent('#sign-in-failed')) ?? '', /disabled/);
    assert.equal(await sessionCookie(context), undefined);
    await context.close();
    await gateway.admin(['user', 'enable', 'mark']);
  });
});
