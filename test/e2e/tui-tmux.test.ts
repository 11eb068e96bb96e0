// The TUI as a user meets it: `gwctl` (no arguments) in a real terminal (tmux, 80x24, NO_COLOR)
// against a started gateway with a key made for the test and a fake proxy. Open, verify, diagnose,
// start the client (the terminal goes to it: it reads a line typed there, then gwctl comes back),
// quit; the captured screens are checked for the expected lines, for no colour, and for the key
// never shown in full.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { GWCTL_BIN, makeSandbox, type Sandbox } from '../cli/gwctl-harness.ts';
import { FakeProxy } from '../helpers/fake-proxy.ts';
import { GatewayProcess } from '../helpers/gateway-process.ts';
import { waitFor } from '../helpers/wait-for.ts';

const SOCKET = `gwctl-tui-e2e-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
let gateway: GatewayProcess | undefined;
let proxy: FakeProxy | undefined;
let sandbox: Sandbox | undefined;
let tmuxStarted = false;

function tmux(...args: string[]): string {
  const result = spawnSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`tmux ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}

/** The visible screen, as text; with escapes when asked (to look for colour). */
function screen(escapes = false): string {
  return tmux('capture-pane', '-p', ...(escapes ? ['-e'] : []), '-t', 'main');
}

async function until(what: string, ...wanted: Array<string | RegExp>): Promise<string> {
  let last = '';
  try {
    await waitFor(
      () => {
        last = screen();
        return wanted.every((w) => (typeof w === 'string' ? last.includes(w) : w.test(last)));
      },
      { timeoutMs: 30_000, intervalMs: 100, what },
    );
  } catch (error) {
    throw new Error(`${(error as Error).message}\n--- screen ---\n${last}`);
  }
  return last;
}

/** The screen as one line of words (wrapped lines joined), for matching text. */
function flat(text: string): string {
  return text.replace(/\s+/g, ' ');
}

/** One key per send-keys (tmux would deliver a string as one chunk). */
function press(key: string): void {
  tmux('send-keys', '-t', 'main', key);
}

before(async () => {
  [gateway, proxy] = await Promise.all([GatewayProcess.start({ adminPassword: 'tui-e2e-admin-password' }), FakeProxy.start('ok')]);
  // The diagnosis sends one short real request through the proxy: it forwards it like the real one.
  proxy.forwardTo = gateway.textUrl;
});

after(async () => {
  if (tmuxStarted) spawnSync('tmux', ['-L', SOCKET, 'kill-server']);
  // tmux leaves its socket file behind.
  rmSync(join(process.env.TMUX_TMPDIR || tmpdir(), `tmux-${process.getuid?.() ?? 0}`, SOCKET), { force: true });
  await Promise.all([gateway?.cleanup(), proxy?.close()]);
  sandbox?.cleanup();
});

test('open, verify, diagnose, start the client and come back, quit', async () => {
  const { key } = await gateway!.createKey();
  sandbox = makeSandbox({
    GWCTL_BASE_URL: gateway!.textUrl,
    GWCTL_PROXY_URL: proxy!.url,
    MSGAPI_AUTH_TOKEN: key,
    ANTHROPIC_BASE_URL: proxy!.url,
    CACHE_FIX_PROXY_UPSTREAM: gateway!.textUrl,
    GWCTL_SETTINGS_FILES: '~/.claude/settings.json',
    NO_COLOR: '1',
    TERM: 'xterm-256color',
  });
  // A client that needs the terminal: it asks for a line, records what it got, exits with 3.
  const record = join(sandbox.root, 'client-record.txt');
  writeFileSync(join(sandbox.bin, 'claude'), ['#!/bin/sh', 'echo "fake client: type a line"', 'read line', `printf '%s\n' "$ANTHROPIC_BASE_URL" "$ANTHROPIC_AUTH_TOKEN" "got:$line" > '${record}'`, 'exit 3', ''].join('\n'));
  chmodSync(join(sandbox.bin, 'claude'), 0o755);
  // The proxy status asks npm for its global prefix; a fixed empty one keeps npm out of the run.
  sandbox.env.npm_config_prefix = join(sandbox.root, 'npm-global');
  mkdirSync(sandbox.env.npm_config_prefix, { recursive: true });
  delete sandbox.env.CI;
  const script = join(sandbox.root, 'run-gwctl.sh');
  const exports = Object.entries(sandbox.env)
    .filter(([name]) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    .map(([name, value]) => `export ${name}='${String(value).replace(/'/g, `'\\''`)}'`);
  writeFileSync(script, ['unset CI', ...exports, `cd '${sandbox.project}'`, `'${process.execPath}' '${GWCTL_BIN}'`, 'echo "gwctl exited $?"', 'sleep 600', ''].join('\n'));

  tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'main', '-x', '80', '-y', '24', `sh '${script}'`);
  tmuxStarted = true;

  const home = await until('the home screen to fill in', 'gwctl › Home', /verified: \d+ models?/, 'proxy → http://127.0.0.1:', '1 Verify key', '8 Support', '9 Quit');
  assert.match(home, new RegExp(`Key +MSGAPI_AUTH_TOKEN sk-…${key.slice(-4)}`));
  assert.match(home, /Base URL +http:\/\/127\.0\.0\.1:\d+ \(env GWCTL_BASE_URL\)/);
  // A loaded machine may make the proxy slow to answer: shown as a warning, still ok (not down).
  assert.match(home, /Proxy +(✔ ok|\S+ ok, but slow to answer \/health)/);
  const colours = /\u001b\[(?:[0-9;]*;)?(?:3[0-7]|38|4[0-7]|48|9[0-7]|10[0-7])(?:;[0-9;]*)?m/;
  assert.doesNotMatch(screen(true), colours, 'NO_COLOR: no colour escapes on the screen');

  press('1');
  const verify = await until('the verification', 'gwctl › Verify key', '✔ models.list', 'OK: 4 passed, 0 warnings, 0 failed, 0 skipped');
  assert.match(verify, /✔ key\.present +MSGAPI_AUTH_TOKEN is set \(sk-…/);
  assert.match(verify, /demo-chat/);
  assert.match(verify, /By hand: \$ gwctl verify/);

  press('Escape');
  await until('home again', 'gwctl › Home');
  press('3');
  await until('the status picker', 'What did the client show?', '› No status');
  press('Enter');
  const diagnose = await until('the diagnosis', 'Diagnosis (no status given)', '✔ plane.same', '✔ proxy.running', 'OK: 10 passed, 0 warnings, 0 failed, 0 skipped', /rows 1–\d+ of \d+ ↓ · j\/k scroll/);
  assert.match(flat(diagnose), /✔ client\.base-url ANTHROPIC_BASE_URL=http:\/\/127\.0\.0\.1:\d+ \(in this shell\): the proxy route/);
  press('G');
  const end = await until('the end of the diagnosis', /↑ rows \d+–(\d+) of \1 · j\/k scroll/, '✔ direct.request');
  assert.match(flat(end), /GET http:\/\/127\.0\.0\.1:\d+\/v1\/models → 200, \d+ models?: demo-chat/);
  assert.match(end, /By hand: \$ gwctl diagnose/);

  press('Escape');
  await until('home again', 'gwctl › Home');
  press('2');
  await until('the start plan', 'gwctl › Start client', 'proxy → http://127.0.0.1:', 'back to gwctl');
  press('Enter');
  const handedOver = await until('the client to have the terminal', 'fake client: type a line', 'gwctl: proxy route → http://127.0.0.1:');
  assert.ok(!handedOver.includes('gwctl › '), 'the app left the screen to the client');
  for (const k of ['h', 'e', 'l', 'l', 'o', 'Enter']) press(k);
  // A client that failed leads straight to a diagnosis of what it saw.
  const back = await until('gwctl to come back diagnosing', '⚠ claude exited with code 3: diagnosing what it saw', 'gwctl › Diagnose', 'Diagnosis (no status given)');
  await waitFor(() => existsSync(record), { timeoutMs: 5000, what: 'the client record' });
  assert.deepEqual(readFileSync(record, 'utf8').split('\n').slice(0, 3), [proxy!.url, key, 'got:hello'], 'the proxy route, the key, and the keys typed reached the client');

  press('q');
  const bye = await until('gwctl to exit', 'gwctl exited 0');
  assert.ok(!bye.includes('gwctl › '), 'the alternate screen is gone');
  const history = tmux('capture-pane', '-p', '-S', '-100', '-t', 'main');
  for (const text of [home, verify, diagnose, end, handedOver, back, bye, history]) assert.ok(!text.includes(key), 'the key is never shown in full');
});
