// The chat app in headless Chromium against a real gateway: answers stream in and render as
// markdown with highlighted code, copy buttons put the text on the clipboard, the system prompt is
// kept and reaches the provider, conversations are renamed, searched and deleted, the last answer
// can be regenerated, each answer's token count sits under it, and no page logs an error. A fake
// chat-completions upstream ("scripted-chat") answers with a code block and says which system
// prompt it received; the demo model covers the built-in path.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { launchBrowser, screenshot, type TestBrowser } from '../helpers/browser.ts';
import { FakeUpstream, jsonReply, sseReply } from '../helpers/fake-upstream.ts';
import { GatewayProcess } from '../helpers/gateway-process.ts';

const ADMIN_PASSWORD = 'admin-password-123';
const WAIT = { timeout: 60_000 };
const CODE = 'def add(a, b):\n    return a + b\n';
let upstream: FakeUpstream;
let gateway: GatewayProcess;
let browser: TestBrowser;
let context: BrowserContext;
let page: Page;
let answers = 0;
/** The next scripted answer fails with a 500 (a provider outage during a retry). */
let failNext = false;
const problems: string[] = [];

/** The scripted upstream's answer: a code block, the system prompt it got, and a running number. */
function scriptedAnswer(body: { messages: Array<{ role: string; content: string }> }): string {
  const system = body.messages.find((m) => m.role === 'system')?.content ?? '(none)';
  answers += 1;
  return `Here is **code**:\n\n\`\`\`python\n${CODE}\`\`\`\n\nSystem prompt: ${system}\n\nAnswer number ${answers}.`;
}

function watch(p: Page): Page {
  p.on('console', (message) => {
    if (message.type() === 'error') problems.push(`${p.url()}: console error: ${message.text()}`);
  });
  p.on('pageerror', (error) => problems.push(`${p.url()}: page error: ${error.message}`));
  p.on('dialog', (dialog) => problems.push(`unexpected dialog: ${dialog.message()}`));
  return p;
}

async function openChat(): Promise<void> {
  await page.goto(`${gateway.textUrl}/apps/chat`);
  await page.waitForSelector('#conversation-list', WAIT);
}

async function send(text: string, model = 'demo-chat'): Promise<void> {
  await page.selectOption('#model', model);
  const before = await page.locator('.turn.assistant').count();
  await page.fill('#prompt', text);
  await page.press('#prompt', 'Enter');
  await page.waitForFunction((n) => document.querySelectorAll('.turn.assistant').length > n && !(document.getElementById('send') as HTMLButtonElement).disabled, before, WAIT);
}

async function conversationTitles(): Promise<string[]> {
  return page.$$eval('#conversation-list button.open', (buttons) => buttons.map((b) => b.textContent ?? ''));
}

before(async () => {
  upstream = await FakeUpstream.start();
  upstream.handle((request) => {
    if (failNext) {
      failNext = false;
      return jsonReply(500, { error: { message: 'The scripted upstream is down.', type: 'server_error' } });
    }
    const text = scriptedAnswer(request.json());
    const pieces = text.match(/[^]{1,12}/g)!;
    const chunk = (delta: object, extra: object = {}) => `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 0, model: 'scripted-chat', choices: [{ index: 0, delta, finish_reason: null }], ...extra })}\n\n`;
    return sseReply(
      [
        ...pieces.map((piece) => chunk({ content: piece })),
        `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 0, model: 'scripted-chat', choices: [], usage: { prompt_tokens: 17, completion_tokens: 29, total_tokens: 46 } })}\n\n`,
        'data: [DONE]\n\n',
      ],
      { delayMs: 10 },
    );
  });
  gateway = await GatewayProcess.start({
    adminPassword: ADMIN_PASSWORD,
    providers: {
      providers: [
        { name: 'demo', type: 'demo', chunkDelayMs: 20 },
        { name: 'scripted', type: 'openai', baseUrl: `${upstream.url}/v1`, timeoutMs: 30_000, models: ['scripted-chat'] },
      ],
    },
  });
  browser = await launchBrowser();
  context = await browser.browser.newContext({ viewport: { width: 1280, height: 820 }, permissions: ['clipboard-read', 'clipboard-write'] });
  page = watch(await context.newPage());
  await page.goto(`${gateway.textUrl}/apps/chat`);
  await page.fill('input[name="username"]', 'admin');
  await page.fill('input[name="password"]', ADMIN_PASSWORD);
  await Promise.all([page.waitForURL((url) => url.pathname === '/apps/chat', WAIT), page.click('button[type="submit"]')]);
});

after(async () => {
  await browser?.close();
  await gateway?.cleanup();
  await upstream?.close();
});

describe('chat', () => {
  test('a message streams in, renders as markdown, gets a plain-text title, and its token count sits under its answer', async () => {
    await openChat();
    await send('Explain **gateways** briefly');
    const answer = page.locator('.turn.assistant').last();
    assert.match((await answer.locator('.msg').textContent())!, /^Demo reply to "Explain gateways briefly"\./);
    assert.equal(await answer.locator('.msg strong').textContent(), 'gateways', 'markdown is rendered');
    const tokens = answer.locator('.msg-meta .tokens');
    assert.match((await tokens.textContent())!, /^\d+ tokens$/);
    const bubble = (await answer.locator('.msg').boundingBox())!;
    const label = (await tokens.boundingBox())!;
    assert.ok(label.y >= bubble.y + bubble.height - 1 && label.y - (bubble.y + bubble.height) < 40, `the count is right under its answer (${JSON.stringify({ bubble, label })})`);
    assert.ok(label.x >= bubble.x - 1 && label.x < bubble.x + bubble.width, 'and aligned with it');
    assert.equal(await page.textContent('#chat-status'), '', 'no detached count above the chat');
    await page.waitForFunction(() => document.querySelectorAll('#conversation-list button.open').length > 0, undefined, WAIT);
    assert.deepEqual(await conversationTitles(), ['Explain gateways briefly'], 'titles are plain text');

    await page.reload();
    await page.locator('#conversation-list button.open', { hasText: 'Explain gateways briefly' }).click();
    await page.waitForSelector('.turn.assistant .tokens:not(:empty)', WAIT);
    assert.equal(await page.locator('.turn.assistant .msg strong').textContent(), 'gateways');
    assert.equal(await page.textContent('.turn.user .msg'), 'Explain **gateways** briefly', 'the question is kept as typed');
  });

  test('a fenced code block is highlighted; its copy button and the answer’s copy button fill the clipboard', async () => {
    await openChat();
    await send('Show me code', 'scripted-chat');
    const block = page.locator('.turn.assistant .code-block').last();
    assert.equal(await block.locator('.code-lang').textContent(), 'Python');
    assert.ok((await block.locator('.hljs-keyword').count()) >= 2, 'keywords are highlighted');
    assert.equal(await block.locator('code').textContent(), CODE);
    await block.locator('button.copy-code').click();
    await page.waitForFunction(() => document.querySelector('.turn.assistant .copy-code')?.textContent === 'Copied', undefined, WAIT);
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), CODE);

    const answer = page.locator('.turn.assistant').last();
    await answer.locator('button.copy-message').click();
    await page.waitForFunction(() => [...document.querySelectorAll('.turn.assistant .copy-message')].at(-1)?.textContent === 'Copied', undefined, WAIT);
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.match(copied, /^Here is \*\*code\*\*:\n\n```python\ndef add/, 'an answer is copied as its markdown');
    await screenshot(page, 'chat-code-block');
  });

  test('the system prompt is kept with the conversation and reaches the provider', async () => {
    await openChat();
    await page.click('#new-chat');
    await page.click('#system-settings summary');
    await page.fill('#system-prompt', 'Answer like a pirate.');
    assert.equal(await page.textContent('#system-state'), '(set)');
    await send('Who are you?', 'scripted-chat');
    assert.match((await page.locator('.turn.assistant .msg').last().textContent())!, /System prompt: Answer like a pirate\./);
    const sent = upstream.last().json<{ messages: Array<{ role: string; content: string }> }>();
    assert.deepEqual(sent.messages[0], { role: 'system', content: 'Answer like a pirate.' });

    await page.reload();
    await page.locator('#conversation-list button.open', { hasText: 'Who are you?' }).click();
    await page.waitForFunction(() => (document.getElementById('system-prompt') as HTMLTextAreaElement).value === 'Answer like a pirate.', undefined, WAIT);
    assert.equal(await page.textContent('#system-state'), '(set)');
    await page.click('#system-settings summary');
    await page.fill('#system-prompt', 'Answer in one word.');
    await page.click('#system-form button[type="submit"]');
    await page.waitForFunction(() => document.getElementById('system-status')?.textContent === 'Saved.', undefined, WAIT);
    await send('Again?', 'scripted-chat');
    assert.match((await page.locator('.turn.assistant .msg').last().textContent())!, /System prompt: Answer in one word\./);
    await screenshot(page, 'chat-system-prompt');

    await page.click('#new-chat');
    assert.equal(await page.inputValue('#system-prompt'), '', 'a new conversation starts without one');
  });

  test('regenerate replaces the last answer, on the page and in the history', async () => {
    await openChat();
    await page.click('#new-chat');
    await send('Regenerate me', 'scripted-chat');
    const first = /Answer number (\d+)/.exec((await page.locator('.turn.assistant .msg').last().textContent())!)![1];
    assert.equal(await page.locator('.turn .regenerate').count(), 1, 'offered on the last answer only');
    await page.click('.turn.assistant button.regenerate');
    await page.waitForFunction(
      (n) => /Answer number (\d+)/.exec(document.querySelector('.turn.assistant .msg')?.textContent ?? '')?.[1] === String(Number(n) + 1) && !(document.getElementById('send') as HTMLButtonElement).disabled,
      first,
      WAIT,
    );
    assert.equal(await page.locator('.turn.assistant').count(), 1);
    await page.reload();
    await page.locator('#conversation-list button.open', { hasText: 'Regenerate me' }).click();
    await page.waitForSelector('.turn.assistant', WAIT);
    assert.equal(await page.locator('.turn.assistant').count(), 1, 'the history keeps one answer');
    assert.match((await page.textContent('.turn.assistant .msg'))!, new RegExp(`Answer number ${Number(first) + 1}\\.`));

    failNext = true;
    await page.click('.turn.assistant button.regenerate');
    await page.waitForFunction(() => /The previous answer was kept\.$/.test(document.getElementById('chat-status')?.textContent ?? ''), undefined, WAIT);
    assert.match((await page.textContent('#chat-status'))!, /The scripted upstream is down\./);
    assert.equal(await page.locator('.turn.assistant').count(), 1);
    assert.match((await page.textContent('.turn.assistant .msg'))!, new RegExp(`Answer number ${Number(first) + 1}\\.`), 'a failed retry keeps the answer');
  });

  test('rename, search (titles and message text) and delete conversations', async () => {
    await openChat();
    await page.click('#new-chat');
    await send('Plan a trip with zebras');
    await page.click('#new-chat');
    await send('Recipes with yak butter');
    await openChat();

    const zebra = page.locator('#conversation-list li', { hasText: 'Plan a trip with zebras' });
    await zebra.locator('button.more').click();
    await zebra.locator('button.rename').click();
    // While renaming, the item holds a form instead of the title.
    const editing = page.locator('#conversation-list input.rename-input');
    await editing.fill('  Safari   notes ');
    await editing.press('Enter');
    await page.waitForFunction(() => [...document.querySelectorAll('#conversation-list button.open')].some((b) => b.textContent === 'Safari notes'), undefined, WAIT);
    await page.reload();
    await page.waitForFunction(() => [...document.querySelectorAll('#conversation-list button.open')].some((b) => b.textContent === 'Safari notes'), undefined, WAIT);

    const renamed = page.locator('#conversation-list li', { hasText: 'Safari notes' });
    await renamed.locator('button.more').click();
    await renamed.locator('button.rename').click();
    assert.equal(await editing.getAttribute('maxlength'), '120', 'the field stops at the longest title the server takes');
    await editing.fill('   ');
    await page.click('#conversation-list .rename-form button[type="submit"]');
    await page.waitForSelector('#conversation-list .rename-form .error:not(:empty)', WAIT);
    assert.equal(await page.textContent('#conversation-list .rename-form .error'), 'A title cannot be empty.');
    await editing.press('Escape');
    await page.waitForSelector('#conversation-list .rename-form', { ...WAIT, state: 'detached' });

    await page.fill('#search', 'ZEBRAS');
    await page.waitForFunction(() => document.querySelectorAll('#conversation-list button.open').length === 1, undefined, WAIT);
    assert.deepEqual(await conversationTitles(), ['Safari notes'], 'found by the text of its message');
    await page.fill('#search', 'yak');
    await page.waitForFunction(() => document.querySelector('#conversation-list button.open')?.textContent === 'Recipes with yak butter', undefined, WAIT);
    await page.fill('#search', 'nothing matches this');
    await page.waitForFunction(() => /No conversation mentions/.test(document.getElementById('list-note')?.textContent ?? ''), undefined, WAIT);
    await screenshot(page, 'chat-search-empty');
    await page.fill('#search', '');
    await page.waitForFunction(() => document.querySelectorAll('#conversation-list button.open').length >= 2, undefined, WAIT);

    await renamed.locator('button.open').click();
    // Opening is a fetch: the conversation is the open one once its list entry says so (turns of
    // the conversation open before may still be on the page until then).
    await page.waitForFunction(() => [...document.querySelectorAll('#conversation-list button.open')].some((b) => b.textContent === 'Safari notes' && b.getAttribute('aria-current') === 'true'), undefined, WAIT);
    await page.waitForSelector('.turn.user', WAIT);
    await renamed.locator('button.more').click();
    await renamed.locator('button.delete').click();
    await page.click('#conversation-list .confirm-delete');
    // While it asks, the item shows the confirmation instead of its title: gone means the
    // confirmation is gone too (the DELETE answered and the item was removed).
    await page.waitForFunction(
      () => !document.querySelector('#conversation-list .confirm') && ![...document.querySelectorAll('#conversation-list button.open')].some((b) => b.textContent === 'Safari notes'),
      undefined,
      WAIT,
    );
    assert.equal(await page.locator('.turn').count(), 0, 'the open conversation is closed when deleted');
    await page.reload();
    await page.waitForFunction(() => document.querySelectorAll('#conversation-list button.open').length > 0, undefined, WAIT);
    assert.ok(!(await conversationTitles()).includes('Safari notes'), 'gone after reload too');
  });

  test('screenshots at desktop (light and dark) and 360 px wide; nothing scrolls sideways on a phone', async () => {
    await openChat();
    await page.locator('#conversation-list button.open', { hasText: 'Show me code' }).click();
    await page.waitForSelector('.code-block', WAIT);
    await screenshot(page, 'chat-desktop');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'chat-desktop-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    const phone = watch(await context.newPage());
    await phone.setViewportSize({ width: 360, height: 740 });
    await phone.goto(`${gateway.textUrl}/apps/chat`);
    await phone.locator('#conversation-list button.open', { hasText: 'Show me code' }).click();
    await phone.waitForSelector('.code-block', WAIT);
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 1, `no horizontal scrolling (${overflow}px)`);
    const composer = (await phone.locator('#prompt').boundingBox())!;
    assert.ok(composer.y + composer.height <= 740, 'the composer is on screen');
    await screenshot(phone, 'chat-360');
    await phone.close();
  });

  test('no console errors or page errors on any chat page', () => {
    assert.deepEqual(problems, []);
  });
});
