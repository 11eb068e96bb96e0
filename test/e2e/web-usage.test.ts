// The usage pages and the keys page's sparklines in headless Chromium, against a real gateway that
// the official `openai` client used with two keys: charts and their hover titles, the period
// switch, stacking by key, a bad custom range, the request log with its filters, the CSV download,
// the keys page (sparkline, last use), on a desktop and a 360 px wide phone, with no console errors.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import type { BrowserContext, Page } from 'playwright-core';
import { launchBrowser, screenshot, type TestBrowser } from '../helpers/browser.ts';
import { GatewayProcess, isolateClientEnvironment, type CreatedKey } from '../helpers/gateway-process.ts';
import { browserLogin, watchProblems, type PageProblems } from '../helpers/web-page.ts';

const ADMIN_PASSWORD = 'admin-password-123';
const METRICS_TOKEN = 'metrics-token-for-this-test';
const WAIT = { timeout: 60_000 };
let gateway: GatewayProcess;
let browser: TestBrowser;
let desktop: BrowserContext;
let page: Page;
let problems: PageProblems;
let laptop: CreatedKey;
let ci: CreatedKey;
let restoreEnv: () => void;

async function ask(client: OpenAI, text: string): Promise<void> {
  const answer = await client.chat.completions.create({ model: 'demo-chat', messages: [{ role: 'user', content: text }] });
  assert.ok(answer.choices[0]?.message.content);
}

/** The rows of the request log table as shown. */
async function logRows(p: Page): Promise<string[][]> {
  return p.$$eval('#request-log tbody tr', (rows) => rows.map((row) => [...row.querySelectorAll('td')].map((td) => td.textContent?.trim() ?? '')));
}

before(async () => {
  restoreEnv = isolateClientEnvironment();
  gateway = await GatewayProcess.start({ adminPassword: ADMIN_PASSWORD, env: { GWCTL_METRICS_TOKEN: METRICS_TOKEN } });
  laptop = await gateway.createKey('admin', 'laptop');
  ci = await gateway.createKey('admin', 'ci');
  // Unused, with a long name: selects and tables must still fit a phone.
  await gateway.createKey('admin', 'the-build-server-of-the-whole-team-with-a-rather-long-name-that-goes-on-and-on');
  const viaLaptop = new OpenAI({ baseURL: `${gateway.textUrl}/v1`, apiKey: laptop.key, maxRetries: 0, defaultHeaders: { 'x-session-id': 'e2e-session-1' } });
  const viaCi = new OpenAI({ baseURL: `${gateway.textUrl}/v1`, apiKey: ci.key, maxRetries: 0 });
  for (let i = 0; i < 3; i += 1) await ask(viaLaptop, `question ${i} from the laptop`);
  for (let i = 0; i < 2; i += 1) await ask(viaCi, `question ${i} from ci`);
  await assert.rejects(viaCi.chat.completions.create({ model: 'no-such-model', messages: [{ role: 'user', content: 'x' }] }), (error: InstanceType<typeof OpenAI.APIError>) => error.status === 404);
  browser = await launchBrowser();
  desktop = await browser.browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  page = await browserLogin(desktop, gateway.textUrl, 'admin', ADMIN_PASSWORD, '/usage');
  problems = watchProblems(page, (url, status) => status === 400 && /[?&]from=2026-11-10&to=2026-11-01/.test(url));
});

after(async () => {
  await browser?.close();
  await gateway?.cleanup();
  restoreEnv?.();
});

describe('usage charts', () => {
  test('the last 24 hours: stacked by model, hover titles, legend, table, readable axes', async () => {
    await page.goto(`${gateway.textUrl}/usage?period=24h`);
    await page.waitForSelector('#chart-requests svg rect', WAIT);
    assert.match((await page.textContent('#period-summary')) ?? '', /Last 24 hours, by hour \(UTC\)\. 6 requests/);
    // The segments' <title>s (the hover text without script) moved into data-title for the script's tooltip.
    const titles = await page.$$eval('#chart-requests rect[data-bucket]', (rects) => rects.map((r) => (r as SVGElement).dataset.title));
    assert.equal(await page.$$eval('#chart-requests rect title', (nodes) => nodes.length), 0, 'no second, native tooltip');
    const hour = new Date().toISOString().slice(0, 13).replace('T', ' ');
    assert.ok(titles.includes(`${hour}:00 UTC · demo-chat: 5 requests`), titles.join(' | '));
    assert.ok(titles.some((t) => /no model \(model lists, refused requests\): 1 request$/.test(t ?? '')), 'the refused request is its own segment');
    const errorLegend = await page.$$eval('#chart-errors .legend li', (items) => items.map((li) => li.textContent?.replace(/\s+/g, ' ').trim()));
    assert.deepEqual(errorLegend, ['demo-chat 0', 'no model (model lists, refused requests) 1']);
    await page.hover('#chart-requests rect[data-bucket="23"]');
    await page.waitForSelector('.schart-tip:not([hidden])', WAIT);
    const tooltip = (await page.innerText('.schart-tip')).split('\n');
    assert.deepEqual(tooltip, [`${hour}:00 UTC`, 'no model (model lists, refused requests): 1 request', 'demo-chat: 5 requests', 'Total: 6 requests']);
    await screenshot(page, 'usage-tooltip');
    await page.mouse.move(0, 0);
    await page.waitForSelector('.schart-tip', { state: 'hidden', ...WAIT });
    // Axis text is HTML, so it stays readable: at least 11 px on a desktop.
    const tick = await page.$eval('#chart-requests .schart-x span', (span) => parseFloat(getComputedStyle(span).fontSize));
    assert.ok(tick >= 11, `axis text ${tick}px`);
    const yTicks = await page.$$eval('#chart-requests .schart-y span', (spans) => spans.map((s) => s.textContent));
    assert.equal(yTicks.length, 5);
    assert.equal(yTicks.at(-1), '0');
    const xTicks = await page.$$eval('#chart-requests .schart-x span', (spans) => spans.map((s) => s.textContent).filter(Boolean));
    assert.ok(xTicks.length >= 4 && xTicks.every((t) => /^\d\d:00$/.test(t!)), xTicks.join(' '));
    await page.click('#chart-requests summary');
    const totals = await page.$$eval('#chart-requests table tbody tr td:last-child', (cells) => cells.map((c) => Number(c.textContent)));
    assert.equal(totals.length, 24);
    assert.equal(totals.reduce((a, b) => a + b, 0), 6);
    await screenshot(page, 'usage-24h-desktop');
    assert.deepEqual(problems.take(), []);
  });

  test('the period switch and stacking by key keep each other; a bad custom range is explained', async () => {
    await page.click('a.chip:text-is("7 days")');
    await page.waitForURL((url) => url.searchParams.get('period') === '7d', WAIT);
    assert.match((await page.textContent('#period-summary')) ?? '', /Last 7 days, by day/);
    assert.equal(await page.$$eval('#chart-requests .schart-x span', (spans) => spans.length), 7);
    await page.click('a.chip:text-is("key")');
    await page.waitForURL((url) => url.searchParams.get('group') === 'key' && url.searchParams.get('period') === '7d', WAIT);
    const legend = await page.$$eval('#chart-requests .legend li', (items) => items.map((li) => li.textContent?.replace(/\s+/g, ' ').trim()));
    assert.deepEqual(legend, [`laptop ${laptop.hint} 3`, `ci ${ci.hint} 3`]);
    const keyTitles = await page.$$eval('#chart-tokens rect[data-bucket]', (rects) => rects.map((r) => (r as SVGElement).dataset.title ?? ''));
    assert.ok(keyTitles.some((t) => t.includes(`laptop ${laptop.hint}:`) && t.endsWith('tokens')), keyTitles.join(' | '));
    await screenshot(page, 'usage-7d-by-key');

    await page.fill('#range-form input[name="from"]', '2026-11-10');
    await page.fill('#range-form input[name="to"]', '2026-11-01');
    await page.click('#range-form button[type="submit"]');
    await page.waitForSelector('#period-error', WAIT);
    assert.match((await page.textContent('#period-error')) ?? '', /“from” \(2026-11-10\) is after “to” \(2026-11-01\); swap them/);
    await screenshot(page, 'usage-bad-range');
    const today = new Date().toISOString().slice(0, 10);
    await page.fill('#range-form input[name="from"]', today);
    await page.fill('#range-form input[name="to"]', today);
    await page.click('#range-form button[type="submit"]');
    await page.waitForSelector('#chart-requests svg rect', WAIT);
    assert.match((await page.textContent('#period-summary')) ?? '', new RegExp(`${today}, by hour \\(UTC\\)\\. 6 requests`));
    assert.equal(new URL(page.url()).searchParams.get('group'), 'key', 'the grouping is kept');
    // Chromium reports the 400 page that the bad range answers on purpose as a failed load.
    const expected = (p: string) => p.startsWith('console error: Failed to load resource: the server responded with a status of 400') && p.includes('from=2026-11-10&to=2026-11-01');
    assert.deepEqual(problems.take().filter((p) => !expected(p)), []);
  });

  test('Download CSV saves the chosen period: one row per bucket × model × key', async () => {
    await page.goto(`${gateway.textUrl}/usage?period=7d&group=model`);
    const [download] = await Promise.all([page.waitForEvent('download', WAIT), page.click('#csv-link')]);
    assert.match(download.suggestedFilename(), /^usage-\d{4}-\d\d-\d\d-to-\d{4}-\d\d-\d\d-by-day\.csv$/);
    const text = await readFile((await download.path())!, 'utf8');
    const lines = text.trimEnd().split('\r\n');
    assert.equal(lines[0], 'bucket_start_utc,model,key_id,key,requests,input_tokens,output_tokens,errors,cost,currency,unpriced_requests');
    const today = new Date().toISOString().slice(0, 10);
    const rows = lines.slice(1).map((l) => l.split(','));
    assert.deepEqual(rows.map((r) => [r[0], r[1], r[3], r[4], r[7]]).sort(), [
      [`${today}T00:00:00Z`, '(none)', `ci ${ci.hint}`, '1', '1'],
      [`${today}T00:00:00Z`, 'demo-chat', `ci ${ci.hint}`, '2', '0'],
      [`${today}T00:00:00Z`, 'demo-chat', `laptop ${laptop.hint}`, '3', '0'],
    ].sort());
    assert.deepEqual(problems.take(), []);
  });
});

describe('request log', () => {
  test('lists the requests of the owner’s keys, filters by status and key, never a body', async () => {
    await page.goto(`${gateway.textUrl}/usage/requests`);
    await page.waitForSelector('#request-log', WAIT);
    const rows = await logRows(page);
    assert.equal(rows.length, 6);
    // Time, key, model, status, tokens in and out, cost (unknown: the demo has no price here), time taken, session.
    assert.ok(rows.every((r) => /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/.test(r[0]!) && /^\d[\d,]* ms$/.test(r[7]!)), JSON.stringify(rows));
    assert.ok(rows.every((r) => r[3] === '404' ? r[6] === '0.00' : r[6] === 'unknown'), 'a refusal costs nothing; an unpriced model is unknown, never 0');
    assert.equal(rows.filter((r) => r[8] === 'e2e-session-1').length, 3, 'the client session id of the laptop requests');
    assert.ok(!(await page.content()).includes('from the laptop'), 'no prompt text');
    await page.selectOption('#log-filters select[name="status"]', '4');
    await Promise.all([page.waitForURL((url) => url.searchParams.get('status') === '4', WAIT), page.click('#log-filters button[type="submit"]')]);
    const refused = await logRows(page);
    assert.equal(refused.length, 1);
    assert.deepEqual([refused[0]![1], refused[0]![3]], [`ci ${ci.hint}`, '404']);
    await page.selectOption('#log-filters select[name="status"]', '');
    await page.selectOption('#log-filters select[name="key"]', { label: `laptop ${laptop.hint}` });
    await Promise.all([page.waitForURL((url) => url.searchParams.get('key') === laptop.id, WAIT), page.click('#log-filters button[type="submit"]')]);
    const ofLaptop = await logRows(page);
    assert.equal(ofLaptop.length, 3);
    assert.ok(ofLaptop.every((r) => r[1] === `laptop ${laptop.hint}` && r[2] === 'demo-chat' && r[3] === '200' && Number(r[4]) > 0 && Number(r[5]) > 0));
    await screenshot(page, 'request-log-desktop');
    assert.deepEqual(problems.take(), []);
  });
});

describe('request log buffer in the metrics', () => {
  test('/metrics shows what waits in the buffer and what was dropped (none here)', async () => {
    const response = await fetch(`${gateway.textUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    assert.equal(response.status, 200);
    const text = await response.text();
    assert.match(text, /^gwctl_request_log_buffered \d+$/m);
    assert.match(text, /^gwctl_request_log_dropped 0$/m);
  });
});

describe('keys page', () => {
  test('each key shows when it was last used and a 14-day sparkline with a text alternative', async () => {
    await page.goto(`${gateway.textUrl}/keys`);
    await page.waitForSelector(`tr[data-key-id="${laptop.id}"] svg.sparkline`, WAIT);
    const today = new Date().toISOString().slice(0, 10);
    for (const [key, count] of [[laptop, 3], [ci, 3]] as const) {
      const row = page.locator(`tr[data-key-id="${key.id}"]`);
      assert.match((await row.locator('td.last-used').textContent()) ?? '', new RegExp(`^${today} \\d\\d:\\d\\d UTC$`));
      const label = await row.locator('svg.sparkline').getAttribute('aria-label');
      assert.equal(label, `${count} requests in the last 14 days, most on ${today} (${count}); today ${count}.`);
      assert.equal(await row.locator('svg.sparkline > rect').count(), 14);
      const box = await row.locator('svg.sparkline').boundingBox();
      assert.ok(box && box.width >= 100 && box.height >= 20, JSON.stringify(box));
    }
    await screenshot(page, 'keys-sparklines');
    assert.deepEqual(problems.take(), []);
  });
});

describe('on a 360 px phone', () => {
  test('usage, request log and keys fit the width (tables scroll inside their cards), with no errors', async () => {
    const phone = await browser.browser.newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 2 });
    try {
      const p = await browserLogin(phone, gateway.textUrl, 'admin', ADMIN_PASSWORD, '/usage');
      const seen = watchProblems(p);
      for (const [path, ready, name] of [
        ['/usage?period=30d', '#chart-requests svg rect', 'usage-30d-phone'],
        ['/usage?period=24h&group=key', '#chart-requests svg rect', 'usage-24h-by-key-phone'],
        ['/usage/requests', '#request-log', 'request-log-phone'],
        ['/keys', 'svg.sparkline', 'keys-phone'],
      ] as const) {
        await p.goto(gateway.textUrl + path);
        await p.waitForSelector(ready, WAIT);
        // The right edge of everything shown, except inside the scrolling containers (tables, the
        // examples' <pre>) and inside closed <details> (not shown).
        const width = await p.evaluate(() =>
          Math.max(
            document.documentElement.scrollWidth,
            ...[...document.querySelectorAll('body *')]
              .filter((e) => !e.closest('.table-wrap, pre, details:not([open]) > :not(summary)') && e.getClientRects().length > 0)
              .map((e) => Math.ceil(e.getBoundingClientRect().right)),
          ),
        );
        assert.ok(width <= 360, `${path} is ${width}px wide`);
        if (path.startsWith('/usage?')) {
          const tick = await p.$eval('#chart-requests .schart-y span', (span) => parseFloat(getComputedStyle(span).fontSize));
          assert.ok(tick >= 11, `axis text ${tick}px on a phone`);
          const plot = await p.$eval('#chart-requests .schart-plot', (el) => el.getBoundingClientRect().width);
          assert.ok(plot > 200, `the plot uses the width (${plot}px)`);
        }
        await screenshot(p, name);
      }
      assert.deepEqual(seen.take(), []);
    } finally {
      await phone.close();
    }
  });
});
