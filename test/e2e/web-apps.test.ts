// The web applications in a real browser: login, keys (shown once, 401 after delete), escaping,
// CSRF, owner isolation, chat streaming, image drawing, operator view.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { launchBrowser, screenshot, type TestBrowser } from '../helpers/browser.ts';
import { GatewayProcess } from '../helpers/gateway-process.ts';

const ADMIN_PASSWORD = 'admin-password-123';
let gateway: GatewayProcess;
let browser: TestBrowser;
let admin: BrowserContext;
let page: Page;

async function login(context: BrowserContext, username: string, password: string, path = '/keys'): Promise<Page> {
  const p = await context.newPage();
  p.on('dialog', (dialog) => {
    throw new Error(`unexpected dialog: ${dialog.message()}`);
  });
  await p.goto(gateway.textUrl + path);
  assert.equal(new URL(p.url()).pathname, '/login', 'logged-out visits land on the login page');
  await p.fill('input[name="username"]', username);
  await p.fill('input[name="password"]', password);
  await Promise.all([p.waitForURL((url) => url.pathname === path), p.click('button[type="submit"]')]);
  return p;
}

async function modelsStatus(key: string): Promise<number> {
  const response = await fetch(`${gateway.textUrl}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
  await response.arrayBuffer();
  return response.status;
}

before(async () => {
  // A slower demo stream, so that watching tokens arrive and stopping mid-answer are observable.
  gateway = await GatewayProcess.start({ adminPassword: ADMIN_PASSWORD, providers: { providers: [{ name: 'demo', type: 'demo', chunkDelayMs: 80 }] } });
  browser = await launchBrowser();
  admin = await browser.browser.newContext({ viewport: { width: 1200, height: 800 } });
  page = await login(admin, 'admin', ADMIN_PASSWORD);
});
after(async () => {
  await browser?.close();
  await gateway?.cleanup();
});

describe('login', () => {
  test('a wrong password is refused on the page; the session cookie is HttpOnly and SameSite=Lax', async () => {
    const context = await browser.browser.newContext();
    const p = await context.newPage();
    await p.goto(`${gateway.textUrl}/apps/chat`);
    assert.match(p.url(), /\/login\?next=%2Fapps%2Fchat$/);
    await p.fill('input[name="username"]', 'admin');
    await p.fill('input[name="password"]', 'wrong-password');
    await p.click('button[type="submit"]');
    await p.waitForSelector('p.error');
    assert.match(await p.textContent('p.error') ?? '', /Wrong user name or password/);
    await screenshot(p, 'login-error');
    await context.close();
    const cookie = (await admin.cookies()).find((c) => c.name === 'gw_session');
    assert.ok(cookie, 'session cookie set');
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.sameSite, 'Lax');
  });
});

describe('keys', () => {
  test('create: the value is shown once, works, and is gone after reload; delete makes it answer 401', async () => {
    await page.goto(`${gateway.textUrl}/keys`);
    await page.fill('#create-key-form input[name="name"]', 'laptop');
    await page.click('#create-key-form button[type="submit"]');
    const key = (await page.textContent('#new-key-value'))!.trim();
    assert.match(key, /^sk-[0-9A-Za-z]{48}$/);
    assert.match(await page.textContent('#created-key') ?? '', /cannot be shown again/);
    await screenshot(page, 'keys-created');
    assert.equal(await modelsStatus(key), 200);

    await page.reload();
    assert.equal(await page.$('#new-key-value'), null);
    assert.ok(!(await page.content()).includes(key), 'the value is not in the DOM after reload');
    const later = await page.request.get(`${gateway.textUrl}/web/api/keys`);
    assert.ok(!(await later.text()).includes(key), 'nor in any later response');
    await screenshot(page, 'keys');

    const row = page.locator('tr', { hasText: 'laptop' });
    await row.getByRole('link', { name: 'Delete' }).click();
    await page.waitForSelector('#confirm-delete');
    await screenshot(page, 'keys-delete-confirm');
    await Promise.all([page.waitForURL(/\/keys\?deleted=1$/), page.click('#confirm-delete')]);
    assert.equal(await modelsStatus(key), 401);
  });

  test('limits: set with a new key in the page, shown in the table, changed on the limits page', async () => {
    await page.goto(`${gateway.textUrl}/keys`);
    await page.fill('#create-key-form input[name="name"]', 'scoped');
    await page.fill('#create-key-form input[name="models"]', 'demo-embedding');
    await page.fill('#create-key-form input[name="budgetRequestsMonth"]', '50');
    await page.click('#create-key-form button[type="submit"]');
    const key = (await page.textContent('#new-key-value'))!.trim();
    const chat = () =>
      fetch(`${gateway.textUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'demo-chat', messages: [{ role: 'user', content: 'hi' }] }),
      });
    assert.equal((await chat()).status, 403);
    await page.reload();
    const row = page.locator('tr', { hasText: 'scoped' });
    assert.match((await row.textContent()) ?? '', /models: demo-embedding.*50 of 50 requests this month left/);
    await row.getByRole('link', { name: 'Limits' }).click();
    await page.waitForSelector('#save-limits');
    await page.fill('input[name="models"]', '');
    await Promise.all([page.waitForURL((url) => url.pathname === '/keys'), page.click('#save-limits')]);
    assert.equal((await chat()).status, 200);
    await screenshot(page, 'keys-limits');
  });

  test('a key name with markup is shown as text, never run', async () => {
    const hostile = '<img src=x onerror=alert(1)>';
    await page.goto(`${gateway.textUrl}/keys`);
    await page.fill('#create-key-form input[name="name"]', hostile);
    await page.click('#create-key-form button[type="submit"]');
    await page.waitForSelector('#new-key-value');
    await page.reload();
    const cell = page.locator('#keys-table td', { hasText: hostile });
    assert.equal(await cell.count(), 1, 'the name appears as text');
    assert.equal(await page.locator('#keys-table img').count(), 0, 'no element was injected');
  });

  test('a cross-site form POST without the token is refused and creates nothing', async () => {
    const before = (await (await page.request.get(`${gateway.textUrl}/web/api/keys`)).json()).keys.length;
    const evil: Server = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(`<form id="f" method="post" action="${gateway.textUrl}/keys"><input name="name" value="evil"></form><script>document.getElementById('f').submit()</script>`);
    });
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
    try {
      const attacker = await admin.newPage();
      const [response] = await Promise.all([
        attacker.waitForResponse((r) => r.url() === `${gateway.textUrl}/keys` && r.request().method() === 'POST'),
        attacker.goto(`http://127.0.0.1:${(evil.address() as AddressInfo).port}/`),
      ]);
      assert.equal(response.status(), 403);
      await attacker.close();
    } finally {
      evil.close();
    }
    const afterCount = (await (await page.request.get(`${gateway.textUrl}/web/api/keys`)).json()).keys.length;
    assert.equal(afterCount, before);
  });

  test('user B neither sees nor deletes user A’s keys', async () => {
    const mine = await gateway.createKey('admin', 'admin-only');
    await gateway.addUser('bob', 'bob-password-123');
    const bobContext = await browser.browser.newContext();
    const bob = await login(bobContext, 'bob', 'bob-password-123');
    assert.ok(!(await bob.content()).includes('admin-only'));
    assert.ok(!(await bob.content()).includes(mine.hint));
    const confirm = await bob.goto(`${gateway.textUrl}/keys/${mine.id}/delete`);
    assert.equal(confirm?.status(), 404);
    const csrf = await bob.evaluate(() => document.querySelector('meta[name="csrf-token"]')?.getAttribute('content'));
    const api = await bob.request.delete(`${gateway.textUrl}/web/api/keys/${mine.id}`, { headers: { 'x-csrf-token': csrf! } });
    assert.equal(api.status(), 404);
    assert.equal(await modelsStatus(mine.key), 200, 'A’s key still works');
    const adminPage = await bobContext.newPage();
    assert.equal((await adminPage.goto(`${gateway.textUrl}/admin`))?.status(), 403);
    await bobContext.close();
  });
});

describe('apps', () => {
  test('chat streams the demo answer token by token, renders it and keeps the conversation', async () => {
    await page.goto(`${gateway.textUrl}/apps/chat`);
    await page.evaluate(() => {
      const w = window as unknown as { lengths: number[] };
      w.lengths = [];
      new MutationObserver(() => {
        const last = [...document.querySelectorAll('.msg.assistant')].at(-1);
        if (last) w.lengths.push(last.textContent!.length);
      }).observe(document.getElementById('messages')!, { subtree: true, childList: true, characterData: true });
    });
    await page.fill('#prompt', 'Explain **gateways** briefly');
    await page.press('#prompt', 'Enter');
    await page.waitForFunction(() => /tokens$/.test(document.querySelector('.turn.assistant .tokens')?.textContent ?? ''));
    const answer = page.locator('.msg.assistant').last();
    assert.match((await answer.textContent())!, /Demo reply to "Explain gateways briefly"/);
    assert.equal(await answer.locator('strong').textContent(), 'gateways', 'markdown is rendered');
    const lengths = await page.evaluate(() => (window as unknown as { lengths: number[] }).lengths);
    const distinct = [...new Set(lengths.filter((n) => n > 0))];
    assert.ok(distinct.length >= 3, `the answer grew in several steps: ${distinct.join(',')}`);
    await screenshot(page, 'chat');
    await page.reload();
    await page.waitForSelector('#conversation-list li button');
    await page.click('#conversation-list li button');
    await page.waitForSelector('.msg.assistant');
    assert.equal(await page.locator('.msg.user').first().textContent(), 'Explain **gateways** briefly');
  });

  test('stop ends the answer where it is; the history keeps it marked as stopped', async () => {
    await page.goto(`${gateway.textUrl}/apps/chat`);
    await page.click('#new-chat');
    await page.fill('#prompt', 'Please write a long answer about streaming');
    await page.click('#send');
    await page.waitForFunction(() => (document.querySelector('.msg.assistant')?.textContent ?? '').length > 0);
    await page.click('#stop');
    await page.waitForFunction(() => document.getElementById('chat-status')!.textContent === 'Stopped.');
    const partial = (await page.locator('.msg.assistant').last().textContent())!;
    assert.match(partial, /\(stopped\)$/);
    await page.waitForFunction(() => !(document.getElementById('send') as HTMLButtonElement).disabled);
    await page.reload();
    await page.locator('#conversation-list li button', { hasText: 'Please write a long answer' }).click();
    await page.waitForSelector('.msg.assistant .stopped');
    const saved = (await page.locator('.msg.assistant').last().textContent())!;
    assert.ok(saved.length > '(stopped)'.length, 'the part that arrived was kept');
    assert.ok(!saved.includes('Delta') && saved.length < 400);
  });

  test('images: a gallery of PNGs of the chosen size with download links', async () => {
    await page.goto(`${gateway.textUrl}/apps/images`);
    await page.fill('#image-prompt', 'a lighthouse at dusk');
    await page.selectOption('#image-size', '256x256');
    await page.selectOption('#image-count', '2');
    await page.click('#generate');
    await page.waitForFunction(() => document.querySelectorAll('#gallery img').length === 2);
    const sources = await page.$$eval('#gallery img', (imgs) => imgs.map((i) => (i as HTMLImageElement).src));
    for (const src of sources) {
      const png = Buffer.from(src.replace(/^data:image\/png;base64,/, ''), 'base64');
      assert.equal(png.subarray(1, 4).toString('ascii'), 'PNG');
      assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [256, 256]);
    }
    assert.equal(await page.locator('#gallery a[download]').count(), 2);
    const natural = await page.$eval('#gallery img', (img) => (img as HTMLImageElement).naturalWidth);
    assert.equal(natural, 256, 'the browser decoded the image');
    await screenshot(page, 'images');
  });

  test('usage page and operator view show the day’s activity', async () => {
    await page.goto(`${gateway.textUrl}/usage`);
    assert.match(await page.textContent('main') ?? '', /Web apps \(no key\)/);
    assert.ok((await page.locator('svg rect').count()) > 0);
    await screenshot(page, 'usage');
    await page.goto(`${gateway.textUrl}/admin`);
    await page.fill('form[action="/admin/users"] input[name="username"]', 'carol');
    await page.fill('form[action="/admin/users"] input[name="password"]', 'carol-password-1');
    await page.click('form[action="/admin/users"] button[type="submit"]');
    await page.waitForSelector('p.notice');
    assert.match(await page.textContent('table') ?? '', /carol/);
    await screenshot(page, 'admin');
  });

  test('readable at phone width', async () => {
    const phone = await admin.newPage();
    await phone.setViewportSize({ width: 375, height: 740 });
    await phone.goto(`${gateway.textUrl}/apps/chat`);
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 1, `no horizontal scrolling (${overflow}px)`);
    await screenshot(phone, 'chat-phone');
    await phone.close();
  });
});
