// The return address after login, in a real browser: browsers repair what they are sent (they drop
// tabs and line breaks, read `\` as `/`, resolve `/.//x` to `//x`), so a Location that looks like a
// path can still leave the site. For every bypass of the classic list the browser must end on the
// gateway, and the "other site" (a local server on another port) must never be asked for anything.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { launchBrowser, type TestBrowser } from '../helpers/browser.ts';
import { GatewayProcess } from '../helpers/gateway-process.ts';

const ADMIN_PASSWORD = 'admin-password-123';
let gateway: GatewayProcess;
let browser: TestBrowser;
let evil: Server;
let evilHost = '';
const evilHits: string[] = [];

/** The list with the other site's address in it; the last ones are odd but paths of this site. */
function bypasses(): string[] {
  const e = evilHost;
  return [
    `/\t/${e}/`,
    `/\n/${e}/`,
    `/\r\n/${e}/`,
    `\t//${e}/`,
    `//${e}/`,
    `///${e}/`,
    `/\\${e}/`,
    `\\\\${e}/`,
    `/\\/${e}/`,
    `/.//${e}/`,
    `/..//${e}/`,
    `http://${e}/`,
    `http:${e}/`,
    `//${e}%2F..`,
    `/\u3000/${e}/`,
    `//127\uff0e0\uff0e0\uff0e1:${e.split(':')[1]}/`,
    'javascript:alert(document.domain)',
    ' javascript:alert(1)',
    `/%2F%2F${e}/`,
    `/\uff0e\uff0e//${e}/`,
  ];
}

async function newPage(context: BrowserContext): Promise<{ page: Page; dialogs: string[] }> {
  const page = await context.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return { page, dialogs };
}

function assertOnGateway(page: Page, value: string): void {
  assert.equal(new URL(page.url()).origin, new URL(gateway.textUrl).origin, `${JSON.stringify(value)} ended on ${page.url()}`);
}

before(async () => {
  evil = createServer((req, res) => {
    evilHits.push(req.url ?? '');
    res.end('other site');
  });
  await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
  evilHost = `127.0.0.1:${(evil.address() as AddressInfo).port}`;
  gateway = await GatewayProcess.start({ adminPassword: ADMIN_PASSWORD });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await gateway?.cleanup();
  await new Promise((resolve) => evil?.close(resolve));
});

describe('return address after login, in Chromium', () => {
  test('logged in: /login?next=<bypass> never takes the browser off the gateway', async () => {
    const context = await browser.browser.newContext();
    const { page: login } = await newPage(context);
    await login.goto(`${gateway.textUrl}/login`);
    await login.fill('input[name="username"]', 'admin');
    await login.fill('input[name="password"]', ADMIN_PASSWORD);
    await Promise.all([login.waitForURL((url) => url.pathname === '/apps/chat'), login.click('button[type="submit"]')]);
    for (const value of bypasses()) {
      const { page, dialogs } = await newPage(context);
      await page.goto(`${gateway.textUrl}/login?next=${encodeURIComponent(value)}`, { waitUntil: 'load' });
      assertOnGateway(page, value);
      assert.deepEqual(dialogs, [], `${JSON.stringify(value)} ran script`);
      await page.close();
    }
    assert.deepEqual(evilHits, [], 'the other site was never asked for anything');
    await context.close();
  });

  test('logged out: the login form of a bypass link lands on the gateway (/keys when refused)', async () => {
    for (const value of bypasses()) {
      const context = await browser.browser.newContext();
      const { page, dialogs } = await newPage(context);
      await page.goto(`${gateway.textUrl}/login?next=${encodeURIComponent(value)}`);
      await page.fill('input[name="username"]', 'admin');
      await page.fill('input[name="password"]', ADMIN_PASSWORD);
      await Promise.all([page.waitForURL((url) => url.pathname !== '/login'), page.click('button[type="submit"]')]);
      await page.waitForLoadState('load');
      assertOnGateway(page, value);
      if (!value.startsWith('/%2F') && !value.startsWith('/\uff0e')) assert.equal(new URL(page.url()).pathname, '/keys', JSON.stringify(value));
      assert.deepEqual(dialogs, [], `${JSON.stringify(value)} ran script`);
      await context.close();
    }
    assert.deepEqual(evilHits, [], 'the other site was never asked for anything');
  });
});
