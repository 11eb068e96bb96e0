// The images app's history in a real browser: a picture drawn with the demo model is still there
// after a reload, downloads as a PNG, can be deleted, and no other user can fetch it. On PostgreSQL,
// a picture drawn through one instance is served, downloaded and deleted through another.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { launchBrowser, screenshot, type TestBrowser } from '../helpers/browser.ts';
import { GatewayProcess } from '../helpers/gateway-process.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres-database.ts';
import { browserLogin, watchProblems, type PageProblems } from '../helpers/web-page.ts';

const ADMIN_PASSWORD = 'admin-password-123';
const WAIT = { timeout: 60_000 };
let gateway: GatewayProcess;
let browser: TestBrowser;
let context: BrowserContext;
let page: Page;
let problems: PageProblems;

before(async () => {
  gateway = await GatewayProcess.start({ adminPassword: ADMIN_PASSWORD });
  browser = await launchBrowser();
  context = await browser.browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  page = await browserLogin(context, gateway.textUrl, 'admin', ADMIN_PASSWORD, '/apps/images');
  problems = watchProblems(page);
});
after(async () => {
  await browser?.close();
  await gateway?.cleanup();
});

test('a drawn picture is in the history after a reload, downloads as a PNG, and is deleted for good', async () => {
  await page.waitForSelector('#history-empty:not(.hidden)', WAIT);
  await page.fill('#image-prompt', 'a lighthouse at dusk');
  await page.selectOption('#image-size', '256x256');
  await page.selectOption('#image-count', '2');
  await page.click('#generate');
  await page.waitForFunction(() => document.querySelectorAll('#gallery figure').length === 2, undefined, WAIT);
  assert.match((await page.textContent('#image-status')) ?? '', /Done: 2 images/);

  await page.reload();
  await page.waitForFunction(() => document.querySelectorAll('#gallery figure').length === 2, undefined, WAIT);
  const ids = await page.$$eval('#gallery figure', (figures) => figures.map((f) => (f as HTMLElement).dataset.id!));
  for (const id of ids) assert.match(id, /^img_[0-9A-Za-z]{16}$/);
  // The history's pictures come from the gateway, not from the page's memory.
  await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>('#gallery img')].every((img) => img.complete && img.naturalWidth === 256), undefined, WAIT);
  const src = await page.$eval('#gallery img', (img) => (img as HTMLImageElement).getAttribute('src'));
  assert.equal(src, `/web/api/images/${ids[0]}`);
  assert.match((await page.textContent('#gallery figure')) ?? '', /a lighthouse at dusk.*256x256 · demo-image/);
  assert.match((await page.textContent('#history-count')) ?? '', /^2 pictures · the latest 50 are kept$/);
  await screenshot(page, 'images-history');

  const [download] = await Promise.all([page.waitForEvent('download', WAIT), page.locator('#gallery figure').first().getByRole('link', { name: /Download/ }).click()]);
  assert.match(download.suggestedFilename(), /^a-lighthouse-at-dusk-img_[0-9A-Za-z]{16}\.png$/);
  const png = readFileSync((await download.path())!);
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [256, 256]);

  // Another user: the picture's URL and its download answer 404, and their history is empty.
  await gateway.addUser('bob', 'bob-password-123');
  const bobContext = await browser.browser.newContext();
  try {
    const bob = await browserLogin(bobContext, gateway.textUrl, 'bob', 'bob-password-123', '/apps/images');
    for (const path of [`/web/api/images/${ids[0]}`, `/web/api/images/${ids[0]}?download=1`]) {
      const answer = await bob.request.get(gateway.textUrl + path);
      assert.equal(answer.status(), 404, path);
      assert.match(await answer.text(), /No such picture in your history/);
    }
    await bob.waitForSelector('#history-empty:not(.hidden)', WAIT);
    assert.equal(await bob.locator('#gallery figure').count(), 0);
  } finally {
    await bobContext.close();
  }

  await page.locator(`#gallery figure[data-id="${ids[0]}"]`).getByRole('button', { name: /Delete/ }).click();
  await page.waitForSelector(`#gallery figure[data-id="${ids[0]}"]`, { state: 'detached', ...WAIT });
  assert.equal((await page.textContent('#image-status'))?.trim(), 'Picture deleted.');
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Delete', 'focus moves to the next picture');
  await page.reload();
  await page.waitForSelector(`#gallery figure[data-id="${ids[1]}"]`, WAIT);
  assert.equal(await page.locator(`#gallery figure[data-id="${ids[0]}"]`).count(), 0, 'gone after a reload');
  assert.equal((await page.request.get(`${gateway.textUrl}/web/api/images/${ids[0]}`)).status(), 404);
  assert.deepEqual(problems.take(), [], 'no console errors, page errors or failed requests');
});

test('the history shows 24 pictures at first and the rest with Show more', async () => {
  const csrf = (await page.getAttribute('meta[name="csrf-token"]', 'content'))!;
  for (let i = 0; i < 7; i += 1) {
    const drawn = await page.request.post(`${gateway.textUrl}/web/api/images`, { headers: { 'x-csrf-token': csrf }, data: { prompt: `tile ${i}`, size: '256x256', n: 4 } });
    assert.equal(drawn.status(), 200);
  }
  const total = (await (await page.request.get(`${gateway.textUrl}/web/api/images`)).json()).total as number;
  assert.ok(total > 24 && total <= 50, `total ${total}`);
  await page.goto(`${gateway.textUrl}/apps/images`);
  await page.waitForFunction(() => document.querySelectorAll('#gallery figure').length === 24, undefined, WAIT);
  assert.equal(await page.isVisible('#history-more'), true);
  await page.click('#history-more');
  await page.waitForFunction((n) => document.querySelectorAll('#gallery figure').length === n, total, WAIT);
  assert.equal(await page.isVisible('#history-more'), false, 'nothing more to show');
  const ids = await page.$$eval('#gallery figure', (figures) => figures.map((f) => (f as HTMLElement).dataset.id));
  assert.equal(new Set(ids).size, total, 'no picture shown twice');
  assert.deepEqual(problems.take(), []);
});

describe('PostgreSQL, two instances', () => {
  let database: TestDatabase;
  let first: GatewayProcess;
  let second: GatewayProcess;
  let shared: BrowserContext;

  before(async () => {
    database = await createTestDatabase('web_images');
    const env = { GWCTL_DATABASE_URL: database.url };
    first = await GatewayProcess.start({ adminPassword: ADMIN_PASSWORD, env });
    second = await GatewayProcess.start({ env });
    // Both listen on 127.0.0.1, so the browser sends the session cookie to both, as behind a balancer.
    shared = await browser.browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  });
  after(async () => {
    await shared?.close();
    await first?.cleanup();
    await second?.cleanup();
    await database?.drop();
  });

  test('drawn on one instance, shown, downloaded and deleted through the other', async () => {
    const onFirst = await browserLogin(shared, first.textUrl, 'admin', ADMIN_PASSWORD, '/apps/images');
    const seen = watchProblems(onFirst);
    await onFirst.waitForSelector('#history-empty:not(.hidden)', WAIT);
    await onFirst.fill('#image-prompt', 'harbour lights');
    await onFirst.selectOption('#image-size', '256x256');
    await onFirst.click('#generate');
    await onFirst.waitForSelector('#gallery figure', WAIT);
    const id = (await onFirst.$eval('#gallery figure', (f) => (f as HTMLElement).dataset.id))!;
    assert.match(id, /^img_/);

    await onFirst.goto(`${second.textUrl}/apps/images`);
    await onFirst.waitForSelector(`#gallery figure[data-id="${id}"]`, WAIT);
    await onFirst.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('#gallery img');
      return img !== null && img.complete && img.naturalWidth === 256;
    }, undefined, WAIT);
    const [download] = await Promise.all([onFirst.waitForEvent('download', WAIT), onFirst.getByRole('link', { name: /Download/ }).click()]);
    const png = readFileSync((await download.path())!);
    assert.equal(png.subarray(1, 4).toString('ascii'), 'PNG');
    const direct = await onFirst.request.get(`${first.textUrl}/web/api/images/${id}`);
    assert.deepEqual(Buffer.from(await direct.body()), png, 'the same bytes from either instance');

    await onFirst.getByRole('button', { name: /Delete/ }).click();
    await onFirst.waitForSelector(`#gallery figure[data-id="${id}"]`, { state: 'detached', ...WAIT });
    assert.equal((await onFirst.request.get(`${first.textUrl}/web/api/images/${id}`)).status(), 404, 'gone for the other instance too');
    assert.deepEqual(seen.take(), []);
  });
});
