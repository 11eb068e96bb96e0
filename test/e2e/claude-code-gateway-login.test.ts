// Claude Code 2.1.197 signing in to the gateway from its own /login screen ("Cloud gateway"), as a
// person at a terminal meets it: the managed-settings file that turns the screen on lives under
// /etc/claude-code, so Claude Code runs in a private mount namespace (unshare --mount) where /etc is
// an overlay and that folder a bind mount of a temp dir; the machine's /etc is never written. The
// screens are driven in tmux; the code is approved on the gateway's /device page by a signed-in
// headless Chromium, typing the code into its one field. Then `claude -p "say pong"` uses the
// stored session (refreshing its short-lived token), and the gateway's managed settings reach it.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { launchBrowser, type TestBrowser } from '../helpers/browser.ts';
import { startTogether } from '../helpers/start-together.ts';
import { GatewayProcess } from '../helpers/gateway-process.ts';
import { CLAUDE_CODE, installRealClient } from '../helpers/real-clients.ts';
import { waitFor } from '../helpers/wait-for.ts';

/** A private mount namespace needs root (CAP_SYS_ADMIN) and overlayfs. */
function namespaceProblem(): string | undefined {
  if (spawnSync('tmux', ['-V']).status !== 0) return 'tmux is not installed';
  const probe = spawnSync('unshare', ['--mount', '--propagation', 'private', 'true']);
  return probe.status === 0 ? undefined : `unshare --mount is not permitted here (${String(probe.stderr).trim()})`;
}
const skip = namespaceProblem();

const SOCKET = `gwctl-cc-login-${process.pid}`;
let root: string;
let gateway: GatewayProcess;
let browser: TestBrowser;
let claude: string;

function tmux(...args: string[]): string {
  const result = spawnSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`tmux ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}
const screen = () => tmux('capture-pane', '-p', '-t', 'claude');

async function waitForScreen(pattern: RegExp, what: string): Promise<string> {
  let last = '';
  try {
    await waitFor(() => pattern.test((last = screen())), { timeoutMs: 90_000, intervalMs: 200, what });
  } catch (error) {
    throw new Error(`${(error as Error).message}\nscreen:\n${last}\ngateway stderr (tail):\n${gateway.stderr.slice(-3000)}`);
  }
  return last;
}

before(async () => {
  if (skip) return;
  root = mkdtempSync(join(tmpdir(), 'gwctl-cc-login-'));
  for (const dir of ['home', 'etc-claude-code', 'overlay/upper', 'overlay/work']) mkdirSync(join(root, dir), { recursive: true });
  const base = join(root, 'base-managed-settings.json');
  writeFileSync(base, JSON.stringify({ cleanupPeriodDays: 45 }));
  [gateway, browser, claude] = await startTogether(
    GatewayProcess.start({ logLevel: 'info', adminPassword: 'admin-password-123', extraArgs: ['--claude-managed-settings', base, '--access-token-ttl', '60'] }),
    launchBrowser(),
    installRealClient(CLAUDE_CODE),
  );
  await gateway.addUser('dana', 'dana-password-123');
  // What `gwctl config client --type claude --gateway-login` prints for this gateway.
  writeFileSync(join(root, 'etc-claude-code', 'managed-settings.json'), JSON.stringify({ forceLoginMethod: 'gateway', forceLoginGatewayUrl: gateway.textUrl, parentSettingsBehavior: 'merge' }));
  // Onboarding done, so Claude Code does not first check that it reaches Anthropic's servers.
  writeFileSync(join(root, 'home', '.claude.json'), JSON.stringify({ hasCompletedOnboarding: true, theme: 'dark' }));
  const script = join(root, 'in-namespace.sh');
  writeFileSync(
    script,
    [
      '#!/bin/sh',
      'set -e',
      `mount -t overlay overlay -o lowerdir=/etc,upperdir=${root}/overlay/upper,workdir=${root}/overlay/work /etc`,
      'mkdir -p /etc/claude-code',
      `mount --bind ${root}/etc-claude-code /etc/claude-code`,
      `cd ${root}/home`,
      `exec env -i PATH=/usr/bin:/bin HOME=${root}/home TERM=xterm-256color CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_AUTOUPDATER=1 DISABLE_TELEMETRY=1 DISABLE_ERROR_REPORTING=1 ANTHROPIC_MODEL=demo-chat '${claude}' "$@"`,
      '',
    ].join('\n'),
  );
  chmodSync(script, 0o755);
});

after(async () => {
  if (skip) return;
  spawnSync('tmux', ['-L', SOCKET, 'kill-server']);
  await Promise.all([gateway?.cleanup(), browser?.close()]);
  rmSync(root, { recursive: true, force: true });
});

function runInNamespace(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('unshare', ['--mount', '--propagation', 'private', join(root, 'in-namespace.sh'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (t: string) => (stdout += t));
    child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
    // A bound, not a timing assertion: a hung client must not hang the suite.
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Claude Code in tmux; the pane stays after it exits and says how, so a failure shows its last screen. */
function startClaude(): void {
  tmux('new-session', '-d', '-s', 'claude', '-x', '120', '-y', '40', `unshare --mount --propagation private ${join(root, 'in-namespace.sh')}; echo "claude exited with $?"; sleep 3600`);
}

test('Claude Code signs in through /login → Cloud gateway, then claude -p uses the session', { skip }, async () => {
  startClaude();
  await waitForScreen(/trust this folder/, 'the folder trust question');
  tmux('send-keys', '-t', 'claude', 'Enter');
  await waitForScreen(/Not logged in|\/login/, 'the prompt, not signed in');
  tmux('send-keys', '-t', 'claude', '-l', '/login');
  await new Promise((resolve) => setTimeout(resolve, 300));
  tmux('send-keys', '-t', 'claude', 'Enter');
  const gatewayScreen = await waitForScreen(/Press Enter to connect/, 'the Cloud gateway screen with the managed address');
  assert.ok(gatewayScreen.includes(gateway.textUrl), 'the address comes from the managed settings');
  tmux('send-keys', '-t', 'claude', 'Enter');
  await waitForScreen(/Trust gateway/, 'the trust-this-gateway question');
  tmux('send-keys', '-t', 'claude', 'Up');
  await waitForScreen(/❯ 1\. Yes, trust this gateway/, 'the Yes choice selected');
  tmux('send-keys', '-t', 'claude', 'Enter');
  const codeScreen = await waitForScreen(/[B-Z]{4}-[B-Z]{4}/, 'the device code');
  const code = /([B-Z]{4}-[B-Z]{4})/.exec(codeScreen)![1]!;
  assert.match(codeScreen, new RegExp(`${gateway.textUrl.replace(/[.]/g, '\\.')}/device`));

  // Dana, signed in to the gateway in her browser, enters the code on /device and approves.
  const context = await browser.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${gateway.textUrl}/device`);
  await page.fill('input[name="username"]', 'dana');
  await page.fill('input[name="password"]', 'dana-password-123');
  await Promise.all([page.waitForURL((url) => url.pathname === '/device', { timeout: 60_000 }), page.click('button[type="submit"]')]);
  await page.fill('input[name="user_code"]', code);
  await Promise.all([page.waitForSelector('#device-approve', { timeout: 60_000 }), page.click('form[action="/device"] button[type="submit"]')]);
  assert.equal(await page.textContent('#device-code code'), code);
  await page.click('#device-approve');
  await page.waitForSelector('#device-result', { timeout: 60_000 });
  await context.close();

  await waitForScreen(/Connected to Cloud gateway/, 'the signed-in confirmation');
  tmux('send-keys', '-t', 'claude', 'Enter');
  // Having received managed settings from the gateway, Claude Code 2.1.197 ends so they apply from
  // the next start; it may also go on at once.
  const next = await waitForScreen(/claude exited with|Cloud gateway\s+│/, 'Claude Code to go on or end after the sign-in');
  if (/claude exited with/.test(next)) {
    assert.match(next, /claude exited with 0/);
    tmux('kill-session', '-t', 'claude');
    startClaude();
    await waitForScreen(/trust this folder/, 'the folder trust question after the restart');
    tmux('send-keys', '-t', 'claude', 'Enter');
  }
  await waitForScreen(/demo-chat · Cloud gateway/, 'the gateway session in the welcome box');
  tmux('send-keys', '-t', 'claude', '-l', 'say pong');
  await new Promise((resolve) => setTimeout(resolve, 300));
  tmux('send-keys', '-t', 'claude', 'Enter');
  await waitForScreen(/Demo reply to "say pong"/, 'the reply in the interactive session');
  tmux('kill-session', '-t', 'claude');

  const run = await runInNamespace(['-p', 'say pong']);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /Demo reply to "say pong"/);

  // The session is the gateway's short-lived token and rotating refresh token: no API key anywhere.
  const stored = readFileSync(join(root, 'home', '.claude', '.credentials.json'), 'utf8');
  assert.match(stored, /"jwt":"gwa-/);
  assert.doesNotMatch(stored, /sk-/);
  // The gateway served its token endpoint, its managed settings (200, the operator's base) and messages with that token.
  // Access tokens live 60 s here, inside Claude Code's five-minute margin: it refreshed (without a
  // client_id) at least once after the device flow's one success, and the rotation held.
  const tokenSuccesses = gateway.stderr.match(/"path":"\/oauth\/token","status":200/g) ?? [];
  assert.ok(tokenSuccesses.length >= 2, `the device flow and at least one refresh succeeded (${tokenSuccesses.length})`);
  assert.doesNotMatch(gateway.stderr, /"path":"\/v1\/messages","status":401/);
  assert.match(gateway.stderr, /"path":"\/managed\/settings","status":200/);
  assert.match(readFileSync(join(root, 'home', '.claude', 'remote-settings.json'), 'utf8'), /"cleanupPeriodDays": 45/, 'the gateway’s policy reached Claude Code');
  assert.match(gateway.stderr, /"path":"\/v1\/messages","status":200/);
});
