// Device sign-in as people meet it, against the built gateway: `gwctl login` in its own process
// prints the approval address, a signed-in browser (headless Chromium) approves it on /device, then
// `gwctl token` prints a short-lived token that works on the API, `gwctl start` hands it to the
// client without any key in the shell or on disk, and `gwctl logout` revokes it everywhere.
// A plain HTTP client goes through the same flow (RFC 8628 polling).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { launchBrowser, type TestBrowser } from '../helpers/browser.ts';
import { startTogether } from '../helpers/start-together.ts';
import { installFakeClient, readClientRecord } from '../helpers/fake-client.ts';
import { GatewayProcess } from '../helpers/gateway-process.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { unusedPort } from '../helpers/fake-proxy.ts';
import { CLAUDE_CODE, installRealClient, realClientEnv, tempHome } from '../helpers/real-clients.ts';
import { gwctl, gwctlProcess, makeSandbox, type Sandbox } from '../cli/gwctl-harness.ts';

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

let gateway: GatewayProcess;
let browser: TestBrowser;
const sandboxes: Sandbox[] = [];
const cleanups: Array<() => void> = [];

before(async () => {
  [gateway, browser] = await startTogether(GatewayProcess.start(), launchBrowser());
  await gateway.addUser('dana', 'dana-password-123');
});
after(async () => {
  await Promise.all([gateway?.cleanup(), browser?.close()]);
  for (const s of sandboxes) s.cleanup();
  for (const cleanup of cleanups) cleanup();
});

/** Dana's browser: opens the approval address, signs in when asked, and presses a button. */
async function decideInBrowser(address: string, button: 'Approve' | 'Deny'): Promise<Page> {
  const context = await browser.browser.newContext();
  const page = await context.newPage();
  await page.goto(address);
  assert.equal(new URL(page.url()).pathname, '/login', 'a signed-out visit asks to sign in first');
  await page.fill('input[name="username"]', 'dana');
  await page.fill('input[name="password"]', 'dana-password-123');
  await Promise.all([page.waitForURL((url) => url.pathname === '/device', { timeout: 60_000 }), page.click('button[type="submit"]')]);
  await page.click(`#device-${button.toLowerCase()}`);
  await page.waitForSelector('#device-result', { timeout: 60_000 });
  return page;
}

function messages(token: string) {
  return fetch(`${gateway.textUrl}/v1/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model: 'demo-chat', max_tokens: 16, messages: [{ role: 'user', content: 'say pong' }] }),
  });
}

describe('device sign-in end to end', () => {
  test('a plain HTTP client: pending until approved in the browser, then tokens that work', async () => {
    const start = await fetch(`${gateway.textUrl}/oauth/device_authorization`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
    assert.equal(start.status, 200);
    const device = (await start.json()) as { device_code: string; verification_uri_complete: string; interval: number };
    const poll = async () => {
      const res = await fetch(`${gateway.textUrl}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: DEVICE_GRANT, device_code: device.device_code }) });
      return { status: res.status, body: (await res.json()) as Record<string, string> };
    };
    assert.equal((await poll()).body.error, 'authorization_pending');
    const page = await decideInBrowser(device.verification_uri_complete, 'Approve');
    assert.match(await page.textContent('#device-result') ?? '', /signed in as dana/);
    await page.context().close();
    let granted: { status: number; body: Record<string, string> } | undefined;
    await waitFor(async () => {
      await new Promise((resolve) => setTimeout(resolve, device.interval * 1000));
      granted = await poll();
      return granted.status === 200;
    }, { timeoutMs: 60_000, what: 'the token endpoint to hand out tokens after the approval' });
    const res = await messages(granted!.body.access_token!);
    assert.equal(res.status, 200, await res.clone().text());
    await res.arrayBuffer();
  });

  test('gwctl login, token, start and logout: no key in the shell or on disk', async () => {
    const s = makeSandbox({ GWCTL_BASE_URL: gateway.textUrl, GWCTL_CREDENTIAL_STORE: 'file' });
    sandboxes.push(s);
    const login = gwctlProcess(['login'], { env: s.env, cwd: s.project });
    let stderr = '';
    login.child.stderr!.on('data', (t: string) => (stderr += t));
    await waitFor(() => /\/device\?user_code=/.test(stderr), { timeoutMs: 60_000, what: 'gwctl login to print the approval address' });
    const address = /(http:\/\/\S+\/device\?user_code=\S+)/.exec(stderr)![1]!;
    const code = /code ([A-Z]{4}-[A-Z]{4})/.exec(stderr)![1]!;
    assert.ok(address.endsWith(code), 'the address carries the code it shows');
    const page = await decideInBrowser(address, 'Approve');
    await page.context().close();
    const done = await login.done;
    assert.equal(done.code, 0, done.err);
    assert.match(done.out, /Signed in to http:\/\/127\.0\.0\.1:\d+/);

    const file = join(s.home, '.local', 'state', 'gwctl', 'sign-in.json');
    assert.equal(statSync(file).mode & 0o777, 0o600, 'the sign-in file is readable by its owner only');
    assert.doesNotMatch(readFileSync(file, 'utf8'), /sk-/, 'no API key was written anywhere');

    const token = await gwctl(['token'], s.env);
    assert.equal(token.code, 0, token.err);
    const accessToken = token.out.trim();
    assert.match(accessToken, /^gwa-[A-Za-z0-9]+$/);
    const res = await messages(accessToken);
    assert.equal(res.status, 200);
    await res.arrayBuffer();

    installFakeClient(s.bin, 'claude');
    s.env.FAKE_CLIENT_RECORD = join(s.root, 'client-record.json');
    const start = await gwctl(['start', '--', '-p', 'say pong'], s.env);
    assert.equal(start.code, 0, start.err);
    assert.match(start.err, /using your sign-in to http:\/\/127\.0\.0\.1:\d+ \(gwctl login\)/);
    const seen = readClientRecord(s.env.FAKE_CLIENT_RECORD)!;
    assert.match(seen.env.ANTHROPIC_AUTH_TOKEN ?? '', /^gwa-/, 'the client gets the short-lived access token');
    assert.equal(seen.env.MSGAPI_AUTH_TOKEN, undefined);

    const logout = await gwctl(['logout'], s.env);
    assert.equal(logout.code, 0, logout.err);
    assert.match(logout.out, /Signed out/);
    const refused = await messages(accessToken);
    assert.equal(refused.status, 401, 'the access token stops working at once');
    await refused.arrayBuffer();
    const again = await gwctl(['token'], s.env);
    assert.equal(again.code, 1);
    assert.match(again.err, /Not signed in/);
  });

  test('gwctl login, then gwctl start runs the real Claude Code with a short-lived token and no key on disk', { timeout: 600_000 }, async () => {
    const clientDir = dirname(await installRealClient(CLAUDE_CODE));
    const { home, cleanup } = tempHome('gwctl-login-claude-');
    cleanups.push(cleanup);
    const env = realClientEnv(home, { PATH: `${clientDir}:${process.env.PATH ?? ''}`, GWCTL_BASE_URL: gateway.textUrl, GWCTL_PROXY_URL: `http://127.0.0.1:${await unusedPort()}`, GWCTL_CREDENTIAL_STORE: 'file' });
    const login = gwctlProcess(['login'], { env, cwd: home });
    let stderr = '';
    login.child.stderr!.on('data', (t: string) => (stderr += t));
    await waitFor(() => /\/device\?user_code=/.test(stderr), { timeoutMs: 60_000, what: 'gwctl login to print the approval address' });
    await (await decideInBrowser(/(http:\/\/\S+\/device\?user_code=\S+)/.exec(stderr)![1]!, 'Approve')).context().close();
    assert.equal((await login.done).code, 0);
    const start = gwctlProcess(['start', '--', '-p', 'say pong'], { env, cwd: home });
    const run = await start.done;
    assert.equal(run.code, 0, `stdout:\n${run.out}\nstderr:\n${run.err}`);
    assert.match(run.out, /Demo reply to "say pong"\./);
    assert.match(run.err, /using your sign-in/);
    assert.match(run.err, /ANTHROPIC_AUTH_TOKEN=…[A-Za-z0-9]{4} /, 'the token is shown masked only');
    assert.doesNotMatch(run.err + run.out, /gwa-[A-Za-z0-9]{20,}/);
    // Nothing under the home holds an API key: only the sign-in file (0600) with its tokens.
    const files = readdirSync(home, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
    for (const file of files) assert.doesNotMatch(readFileSync(join(file.parentPath, file.name), 'utf8'), /\bsk-[A-Za-z0-9]{20,}/, join(file.parentPath, file.name));
  });

  test('gwctl login reports a denial', async () => {
    const s = makeSandbox({ GWCTL_BASE_URL: gateway.textUrl, GWCTL_CREDENTIAL_STORE: 'file' });
    sandboxes.push(s);
    const login = gwctlProcess(['login'], { env: s.env, cwd: s.project });
    let stderr = '';
    login.child.stderr!.on('data', (t: string) => (stderr += t));
    await waitFor(() => /\/device\?user_code=/.test(stderr), { timeoutMs: 60_000, what: 'gwctl login to print the approval address' });
    const page = await decideInBrowser(/(http:\/\/\S+\/device\?user_code=\S+)/.exec(stderr)![1]!, 'Deny');
    await page.context().close();
    const done = await login.done;
    assert.equal(done.code, 1);
    assert.match(done.err, /denied/);
  });
});
