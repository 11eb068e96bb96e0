// Every page of the web console in a real browser, at phone and desktop width, in light and dark
// mode: no console errors, page errors or failed requests (the favicon included), nothing wider
// than a 360 px screen, titles, the active link marked, every control labelled, readable contrast,
// a visible focus ring along a tab order that starts with the skip link and reaches each page's
// main controls, the phone menu by keyboard and without scripts, and the chat's input on screen.
// Tables: no value wraps inside its cell (ids, keys, names, times), rows stay short, no cell's content
// spills out of it, every action button is whole and on screen, and a table wider than its card says
// that it scrolls.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { launchBrowser, screenshot, type TestBrowser } from '../helpers/browser.ts';
import { GatewayProcess } from '../helpers/gateway-process.ts';
import { browserLogin, watchProblems } from '../helpers/web-page.ts';

const ADMIN_PASSWORD = 'admin-password-123';
const WAIT = { timeout: 60_000 };
const VIEWPORTS = [
  { name: 'phone', width: 360, height: 740 },
  { name: 'wide', width: 1280, height: 800 },
] as const;
const SCHEMES = ['light', 'dark'] as const;

interface PageCase {
  name: string;
  path: () => string;
  title: RegExp;
  /** The nav link marked current, if any. */
  current?: string;
  /** A main control the keyboard must reach from the top of the page. */
  control: string;
}

let gateway: GatewayProcess;
let browser: TestBrowser;
let keyId = '';
let adminId = '';

const PAGES: PageCase[] = [
  { name: 'chat', path: () => '/apps/chat', title: /^Chat · gwctl$/, current: 'Chat', control: '#prompt' },
  { name: 'images', path: () => '/apps/images', title: /^Images · gwctl$/, current: 'Images', control: '#image-prompt' },
  { name: 'keys', path: () => '/keys', title: /^API keys · gwctl$/, current: 'API keys', control: '#create-key-form input[name="name"]' },
  { name: 'usage', path: () => '/usage', title: /^Usage · gwctl$/, current: 'Usage', control: 'main a, main select, main input, main button' },
  { name: 'request-log', path: () => '/usage/requests', title: /^Request log · gwctl$/, current: 'Usage', control: 'main select[name="key"]' },
  { name: 'admin', path: () => '/admin', title: /^Users · gwctl$/, current: 'Users', control: 'form[action="/admin/users"] input[name="username"]' },
  { name: 'key-limits', path: () => `/keys/${keyId}/limits`, title: /^Key limits · gwctl$/, current: 'API keys', control: 'main input[name="models"]' },
  { name: 'user-limits', path: () => `/admin/users/${adminId}/limits`, title: /^User limits · gwctl$/, current: 'Users', control: 'main input[name="models"]' },
  { name: 'admin-keys', path: () => '/admin/keys', title: /^All keys · gwctl$/, current: 'All keys', control: '#key-search input[name="q"]' },
  { name: 'user-usage', path: () => `/admin/users/${adminId}/usage`, title: /^Usage of admin · gwctl$/, current: 'Users', control: 'main a.chip' },
  { name: 'account', path: () => '/account', title: /^Your account · gwctl$/, control: '#password-form input[name="current"]' },
];

/** The tallest a table row may be: a few lines of limits, never a value wrapped letter by letter. */
const MAX_ROW_HEIGHT = 110;

/**
 * What is wrong with the tables of the page: values wrapped inside a cell (outside .wrap/limits
 * cells), rows taller than the bound, content spilling out of its cell, buttons cut or off screen,
 * and tables wider than their card without the scroll sign. Plain JavaScript, as CONTRAST_SCRIPT.
 */
const TABLES_SCRIPT = `(maxRow) => {
  const problems = [];
  const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
  // Lines of text in a node: a text box that starts below the bottom of the current line opens a new one
  // (buttons and code on one line have different tops but overlap vertically).
  const lines = (node) => {
    const rects = [];
    const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      if (!text.textContent.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(text);
      for (const rect of range.getClientRects()) if (rect.width > 0) rects.push(rect);
    }
    rects.sort((a, b) => a.top - b.top);
    let count = 0;
    let bottom = -Infinity;
    for (const rect of rects) {
      if (rect.top >= bottom - 1) { count += 1; bottom = rect.bottom; } else bottom = Math.max(bottom, rect.bottom);
    }
    return count;
  };
  for (const wrap of document.querySelectorAll('.table-wrap')) {
    if (wrap.getClientRects().length === 0 || wrap.closest('details:not([open])')) continue;
    const table = wrap.querySelector('table');
    if (!table || table.getClientRects().length === 0) continue;
    const where = table.id ? '#' + table.id : (wrap.closest('section') && wrap.closest('section').querySelector('h2') ? wrap.closest('section').querySelector('h2').textContent : 'table');
    const scrolls = wrap.scrollWidth > wrap.clientWidth + 1;
    if (scrolls) {
      const hint = wrap.previousElementSibling;
      if (!wrap.classList.contains('scrolls') || !hint || !hint.classList.contains('scroll-hint') || hint.getClientRects().length === 0) problems.push(where + ': scrolls sideways without the scroll sign');
    }
    const box = wrap.getBoundingClientRect();
    for (const row of table.querySelectorAll('tbody tr')) {
      const height = row.getBoundingClientRect().height;
      if (height > maxRow) problems.push(where + ': a row is ' + Math.round(height) + 'px tall');
      for (const cell of row.cells) {
        const prose = cell.matches('.wrap, .limits-cell, .spark-cell, .actions-cell');
        if (!prose && lines(cell) > 1) problems.push(where + ': "' + cell.textContent.trim().slice(0, 40) + '" wraps inside its cell');
        if (cell.scrollWidth > cell.clientWidth + 1) problems.push(where + ': "' + cell.textContent.trim().slice(0, 40) + '" spills out of its cell');
      }
    }
    for (const control of table.querySelectorAll('button, a.button, summary')) {
      if (control.getClientRects().length === 0) continue;
      const r = control.getBoundingClientRect();
      if (lines(control) > 1) problems.push(where + ': the button "' + control.textContent.trim() + '" wraps');
      if (control.scrollWidth > control.clientWidth + 1) problems.push(where + ': ' + name(control) + ' "' + control.textContent.trim() + '" is cut');
      if (control.closest('.actions-cell') && (r.left < box.left - 1 || r.right > box.right + 1 || r.right > window.innerWidth)) problems.push(where + ': the action "' + control.textContent.trim() + '" is off screen (' + Math.round(r.left) + '-' + Math.round(r.right) + ' of ' + Math.round(box.left) + '-' + Math.round(box.right) + ')');
    }
  }
  return problems;
}`;

async function tableProblems(page: Page): Promise<string[]> {
  return page.evaluate(`(${TABLES_SCRIPT})(${MAX_ROW_HEIGHT})`);
}

before(async () => {
  gateway = await GatewayProcess.start({ adminPassword: ADMIN_PASSWORD });
  // Something on every page: a key with a long name (tables at phone width), usage, a picture.
  const key = await gateway.createKey('admin', 'a-rather-long-key-name-for-the-build-server-of-the-team');
  keyId = key.id;
  const chat = await fetch(`${gateway.textUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'demo-chat', messages: [{ role: 'user', content: 'hello' }] }),
  });
  assert.equal(chat.status, 200);
  await chat.arrayBuffer();
  // A second person with a long name and a key: the users table, all keys and the audit list fill up.
  await gateway.adminJson(['user', 'add', 'maria.fernanda.long-surname@example-company.example']);
  await gateway.createKey('maria.fernanda.long-surname@example-company.example', 'ci-runner-for-the-monorepo-nightly-builds');
  const users = await gateway.adminJson<Array<{ id: string; username: string }>>(['user', 'list']);
  adminId = users.find((u) => u.username === 'admin')!.id;
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await gateway?.cleanup();
});

async function newContext(width: number, height: number, colorScheme: 'light' | 'dark', javaScriptEnabled = true): Promise<BrowserContext> {
  return browser.browser.newContext({ viewport: { width, height }, colorScheme, javaScriptEnabled, reducedMotion: 'reduce' });
}

/** Waits until the page's scripts have done their first loads (history, lists). */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle', WAIT);
}

async function horizontalOverflow(page: Page): Promise<{ overflow: number; widest: string }> {
  return page.evaluate(() => {
    const overflow = document.documentElement.scrollWidth - window.innerWidth;
    let widest = '';
    if (overflow > 0) {
      for (const el of document.querySelectorAll<HTMLElement>('body *')) {
        const box = el.getBoundingClientRect();
        if (box.right > window.innerWidth + 0.5 && !el.closest('.table-wrap')) {
          widest = `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}.${[...el.classList].join('.')} right=${Math.round(box.right)}`;
          break;
        }
      }
    }
    return { overflow, widest };
  });
}

/** Visible form controls without an accessible name. */
async function unlabelled(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>('input, select, textarea')]
      .filter((el) => el.type !== 'hidden' && el.getClientRects().length > 0)
      .filter((el) => !(el.labels && [...el.labels].some((l) => l.textContent!.trim())) && !el.getAttribute('aria-label') && !el.getAttribute('aria-labelledby'))
      .map((el) => el.outerHTML.slice(0, 120)),
  );
}

/**
 * WCAG contrast of an element's text colour against the first opaque background behind it. Plain
 * JavaScript text: tsx would wrap the named helpers of a TypeScript callback in a `__name` call the
 * page does not have.
 */
const CONTRAST_SCRIPT = `(list) => {
  function rgb(value) { return (value.match(/[\\d.]+/g) || []).map(Number); }
  function luminance(parts) {
    const weights = [0.2126, 0.7152, 0.0722];
    let sum = 0;
    for (let i = 0; i < 3; i += 1) {
      const v = parts[i] / 255;
      sum += weights[i] * (v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4));
    }
    return sum;
  }
  function background(el) {
    for (let node = el; node; node = node.parentElement) {
      const parts = rgb(getComputedStyle(node).backgroundColor);
      if (parts.length === 3 || (parts.length === 4 && parts[3] > 0.9)) return parts;
    }
    return [255, 255, 255];
  }
  const out = [];
  for (const selector of list) {
    const el = document.querySelector(selector);
    if (!el || el.getClientRects().length === 0) continue;
    const pair = [luminance(rgb(getComputedStyle(el).color)), luminance(background(el))].sort((x, y) => y - x);
    out.push([selector, Math.round(((pair[0] + 0.05) / (pair[1] + 0.05)) * 100) / 100]);
  }
  return out;
}`;

async function contrasts(page: Page, selectors: string[]): Promise<Array<[string, number]>> {
  return page.evaluate(`(${CONTRAST_SCRIPT})(${JSON.stringify(selectors)})`);
}

/** Tabs from the top of the page; returns what got focus, checking each has a visible focus ring. */
async function tabThrough(page: Page, until: string, maxSteps = 40): Promise<string[]> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.evaluate(() => window.scrollTo(0, 0));
  const seen: string[] = [];
  for (let i = 0; i < maxSteps; i += 1) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate((target) => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return null;
      const style = getComputedStyle(el);
      const ring = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2) || style.boxShadow !== 'none';
      const name = `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''} "${(el.textContent ?? '').trim().slice(0, 30) || el.getAttribute('name') || ''}"`;
      return { name, ring, visible: el.getClientRects().length > 0, isTarget: el.matches(target) };
    }, until);
    if (!focused) continue;
    assert.ok(focused.visible, `focus reached something invisible: ${focused.name}`);
    assert.ok(focused.ring, `no visible focus ring on ${focused.name}`);
    seen.push(focused.name);
    if (focused.isTarget) return seen;
  }
  assert.fail(`the keyboard did not reach ${until} in ${maxSteps} steps: ${seen.join(' → ')}`);
}

for (const viewport of VIEWPORTS) {
  for (const scheme of SCHEMES) {
    describe(`${viewport.name} ${viewport.width}x${viewport.height}, ${scheme}`, () => {
      let context: BrowserContext;
      let page: Page;
      let problems: ReturnType<typeof watchProblems>;

      before(async () => {
        context = await newContext(viewport.width, viewport.height, scheme);
        const login = await context.newPage();
        const loginProblems = watchProblems(login);
        await login.goto(`${gateway.textUrl}/login`);
        await settle(login);
        assert.equal(await login.title(), 'Log in · gwctl');
        assert.deepEqual(await horizontalOverflow(login), { overflow: 0, widest: '' });
        assert.deepEqual(await unlabelled(login), []);
        await screenshot(login, `layout-login-${viewport.name}-${scheme}`);
        assert.deepEqual(loginProblems.take(), []);
        await login.close();
        page = await browserLogin(context, gateway.textUrl, 'admin', ADMIN_PASSWORD, '/apps/chat');
        problems = watchProblems(page);
      });
      after(async () => {
        await context?.close();
      });

      for (const item of PAGES) {
        test(`${item.name}: no errors, fits the screen, labelled, readable, reachable by keyboard`, async () => {
          const response = await page.goto(gateway.textUrl + item.path());
          assert.equal(response?.status(), 200);
          await settle(page);
          assert.match(await page.title(), item.title);
          const current = await page.$$eval('nav a[aria-current="page"]', (links) => links.map((a) => a.textContent));
          assert.deepEqual(current, item.current ? [item.current] : []);

          const { overflow, widest } = await horizontalOverflow(page);
          assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen (${widest})`);
          assert.deepEqual(await unlabelled(page), [], 'every control has a label');
          assert.deepEqual(await tableProblems(page), [], 'tables read well');
          for (const [selector, ratio] of await contrasts(page, ['main h1', 'main p', 'main .muted', 'main label', 'main button.primary', 'main a', 'main th', 'main td', '.top nav a', '.top nav a[aria-current]'])) {
            assert.ok(ratio >= 4.5, `contrast of ${selector} is ${ratio}:1`);
          }

          const order = await tabThrough(page, item.control);
          assert.match(order[0]!, /^a "Skip to content"$/, 'the skip link comes first');
          assert.ok(order.some((name) => /^a "gwctl"/.test(name)), `the header comes before the content: ${order.join(' → ')}`);
          await screenshot(page, `layout-${item.name}-${viewport.name}-${scheme}`);
          assert.deepEqual(problems.take(), []);
        });
      }

      test('the skip link moves focus to the content', async () => {
        await page.goto(`${gateway.textUrl}/keys`);
        await settle(page);
        await page.keyboard.press('Tab');
        assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to content');
        const box = await page.locator('.skip-link').boundingBox();
        assert.ok(box && box.y >= 0 && box.y + box.height <= viewport.height, 'visible once focused');
        await page.keyboard.press('Enter');
        assert.equal(await page.evaluate(() => document.activeElement?.id), 'main');
        await page.keyboard.press('Tab');
        assert.ok(await page.evaluate(() => document.getElementById('main')!.contains(document.activeElement)), 'the next Tab stays in the content');
        assert.deepEqual(problems.take(), []);
      });

      test('favicon: the SVG and /favicon.ico answer', async () => {
        for (const path of ['/assets/favicon.svg', '/favicon.ico']) {
          const answer = await page.request.get(gateway.textUrl + path);
          assert.equal(answer.status(), 200, path);
          assert.match(answer.headers()['content-type'] ?? '', /^image\/svg\+xml/, path);
          assert.match(await answer.text(), /^<svg /, path);
        }
        assert.equal(await page.getAttribute('link[rel="icon"]', 'href'), '/assets/favicon.svg');
      });

      if (viewport.name === 'phone') {
        test('phone: the menu button opens and closes the links by keyboard', async () => {
          await page.goto(`${gateway.textUrl}/usage`);
          await settle(page);
          const menu = page.locator('.menu-button');
          const keysLink = page.locator('nav a', { hasText: 'API keys' });
          assert.equal(await keysLink.isVisible(), false, 'folded at first');
          assert.equal(await menu.getAttribute('aria-expanded'), 'false');
          await menu.focus();
          await page.keyboard.press('Enter');
          assert.equal(await menu.getAttribute('aria-expanded'), 'true');
          assert.equal(await keysLink.isVisible(), true);
          await page.keyboard.press('Tab');
          assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Chat', 'the first link follows the button');
          await page.keyboard.press('Escape');
          assert.equal(await menu.getAttribute('aria-expanded'), 'false');
          assert.equal(await keysLink.isVisible(), false);
          assert.equal(await page.evaluate(() => document.activeElement?.className), 'menu-button', 'focus returns to the button');
          await menu.click();
          await screenshot(page, `layout-menu-open-${scheme}`);
          await Promise.all([page.waitForURL((url) => url.pathname === '/keys', WAIT), keysLink.click()]);
          assert.deepEqual(problems.take(), []);
        });

        test('phone: the chat input and its Send button are on screen without scrolling', async () => {
          await page.goto(`${gateway.textUrl}/apps/chat`);
          await settle(page);
          for (const selector of ['#prompt', '#send']) {
            const box = await page.locator(selector).boundingBox();
            assert.ok(box, selector);
            assert.ok(box.y >= 0 && box.y + box.height <= viewport.height, `${selector} spans ${Math.round(box.y)}–${Math.round(box.y + box.height)} of ${viewport.height}`);
          }
          assert.equal(await page.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight), true, 'the page itself does not scroll');
          assert.deepEqual(problems.take(), []);
        });
      }
    });
  }
}

test('without scripts, the phone header still shows every link', async () => {
  const context = await newContext(360, 740, 'light', false);
  try {
    const page = await context.newPage();
    await page.goto(`${gateway.textUrl}/login?next=%2Fkeys`);
    await page.fill('input[name="username"]', 'admin');
    await page.fill('input[name="password"]', ADMIN_PASSWORD);
    await Promise.all([page.waitForURL((url) => url.pathname === '/keys', WAIT), page.click('button[type="submit"]')]);
    for (const label of ['Chat', 'Images', 'API keys', 'Usage', 'Users']) assert.equal(await page.locator('nav a', { hasText: label }).isVisible(), true, label);
    assert.equal(await page.locator('.menu-button').isVisible(), false, 'no button that could not work');
    assert.deepEqual(await horizontalOverflow(page), { overflow: 0, widest: '' });
    await screenshot(page, 'layout-keys-phone-noscript');
  } finally {
    await context.close();
  }
});
