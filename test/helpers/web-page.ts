// Browser pages of a test gateway: log in through the form, and collect what a user's browser
// would complain about (console errors, uncaught exceptions, failed requests, 4xx/5xx answers).
import assert from 'node:assert/strict';
import type { BrowserContext, Page } from 'playwright-core';

export async function browserLogin(context: BrowserContext, baseUrl: string, username: string, password: string, path = '/keys'): Promise<Page> {
  const page = await context.newPage();
  await page.goto(baseUrl + path);
  assert.equal(new URL(page.url()).pathname, '/login', 'logged-out visits land on the login page');
  await page.fill('input[name="username"]', username);
  await page.fill('input[name="password"]', password);
  await Promise.all([page.waitForURL((url) => url.pathname === path, { timeout: 60_000 }), page.click('button[type="submit"]')]);
  return page;
}

export interface PageProblems {
  /** Everything seen since the last take(), emptied. */
  take(): string[];
}

/** Starts listening on a page; `allow` skips answers a test causes on purpose (e.g. a 401 login). */
export function watchProblems(page: Page, allow: (url: string, status: number) => boolean = () => false): PageProblems {
  let seen: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') seen.push(`console error: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => seen.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => {
    // A navigation away cancels what the previous page was still loading: not a fault of the page.
    if (request.failure()?.errorText === 'net::ERR_ABORTED') return;
    seen.push(`request failed: ${request.method()} ${request.url()} ${request.failure()?.errorText ?? ''}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400 && !allow(response.url(), response.status())) seen.push(`${response.status()} for ${response.request().method()} ${response.url()}`);
  });
  return {
    take() {
      const out = seen;
      seen = [];
      return out;
    },
  };
}
