// Start client: the safe-start plan (route and why, client, variables with the credential masked,
// settings to clean), a confirmation before files change, then the terminal is handed to the client
// (the app leaves with a handover request); a refusal starts nothing; coming back shows the exit code.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Handover } from '../../tui/hooks/session.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { fakeHttp, flat, KEY, PROXY, renderApp, reply, TEST_KEY, machinesForThisFile } from './tui-harness.tsx';

const setup = machinesForThisFile();

function handoverOf(exits: unknown[]): Handover {
  assert.equal(exits.length, 1, 'the app left once');
  const exit = exits[0] as { kind: string; handover: Handover };
  assert.equal(exit.kind, 'handover');
  return exit.handover;
}

test('healthy proxy: the plan shows the proxy route, masked variables; enter hands the terminal over', async () => {
  const m = setup();
  const app = renderApp(m.deps);
  await app.press('2');
  const frame = flat(await app.waitFor('gwctl › Start client', 'Route', 'proxy → http://127.0.0.1:9801', 'no pinned base address'));
  assert.match(frame, /Why +the proxy is healthy \(GET http:\/\/127\.0\.0\.1:9801\/health → 200/);
  assert.match(frame, new RegExp(`Client +claude ${m.sandbox.bin}/claude`));
  assert.match(frame, /ANTHROPIC_BASE_URL=http:\/\/127\.0\.0\.1:9801 +ANTHROPIC_AUTH_TOKEN=sk-…Ab12 +ANTHROPIC_API_KEY unset/);
  assert.match(frame, /Afterwards +back to gwctl \(setting tui\.afterClient\)/);
  await app.press(KEY.enter);
  await waitExit(app.exits);
  const h = handoverOf(app.exits);
  assert.equal(h.request.file, join(m.sandbox.bin, 'claude'));
  assert.equal(h.request.env.ANTHROPIC_BASE_URL, PROXY);
  assert.equal(h.request.env.ANTHROPIC_AUTH_TOKEN, TEST_KEY, 'the client gets the key');
  assert.equal(h.request.env.ANTHROPIC_API_KEY, undefined);
  assert.equal(h.afterClient, 'return');
  assert.match(h.banner[0]!, /^gwctl: proxy route → http:\/\/127\.0\.0\.1:9801; starting .*\/claude$/);
  assert.ok(!h.banner.join('\n').includes(TEST_KEY) && app.frames.every((f) => !f.includes(TEST_KEY)), 'the key is never shown');
});

test('pinned settings: the change is listed and confirmed first; n changes nothing, y backs up, cleans and starts', async () => {
  const m = setup({ env: { GWCTL_TUI_AFTER_CLIENT: 'exit' } });
  const file = join(m.sandbox.project, '.claude', 'settings.json');
  mkdirSync(join(m.sandbox.project, '.claude'), { recursive: true });
  const original = JSON.stringify({ env: { ANTHROPIC_BASE_URL: 'https://old.example.com', KEEP: '1' }, model: 'x' }, null, 2);
  writeFileSync(file, original);
  const app = renderApp(m.deps);
  await app.press('2');
  const plan = flat(await app.waitFor('will be backed up', 'remove env.ANTHROPIC_BASE_URL=https://old.example.com'));
  assert.match(plan, /gwctl exits with the client's exit code/);
  assert.match(plan, /start claude \(asks before changing files\)/);
  await app.press(KEY.enter);
  const confirm = flat(await app.waitFor('Back up and change 1 file, then start claude?', 'What will change:', 'y/enter back up, clean and start'));
  assert.match(confirm, /~\/\.\.\/project\/\.claude\/settings\.json|project\/\.claude\/settings\.json: back up, then remove env\.ANTHROPIC_BASE_URL=https:\/\/old\.example\.com/);
  await app.press('n');
  await app.waitFor('will be backed up');
  assert.equal(readFileSync(file, 'utf8'), original, 'nothing changed on n');
  assert.deepEqual(app.exits, []);
  await app.press(KEY.enter);
  await app.waitFor('What will change:');
  await app.press('y');
  await waitExit(app.exits);
  const h = handoverOf(app.exits);
  assert.equal(h.afterClient, 'exit');
  const cleaned = JSON.parse(readFileSync(file, 'utf8'));
  assert.deepEqual(cleaned.env, { KEEP: '1' });
  const backups = readdirSync(join(m.sandbox.project, '.claude')).filter((f) => f !== 'settings.json');
  assert.equal(backups.length, 1, `one backup next to the file: ${backups}`);
  assert.equal(readFileSync(join(m.sandbox.project, '.claude', backups[0]!), 'utf8'), original);
  assert.ok(h.banner.some((l) => /settings .*backed up to .*removed env\.ANTHROPIC_BASE_URL/.test(l)));
  assert.ok(h.banner.includes('  Undo with: gwctl start --restore'));
  assert.ok(existsSync(join(m.sandbox.home, '.local', 'state', 'gwctl', 'start-backups.json')), 'the clean-up is on record for --restore');
});

test('no key in the shell: the start is refused with the cause, remedy and commands; enter starts nothing', async () => {
  const m = setup({ env: { ANTHROPIC_AUTH_TOKEN: undefined } });
  const app = renderApp(m.deps);
  await app.press('2');
  const frame = flat(await app.waitFor('Start refused [TOKEN_MISSING_IN_SHELL]', 'ANTHROPIC_AUTH_TOKEN and MSGAPI_AUTH_TOKEN are not set in this shell'));
  assert.match(frame, /→ Export the key for this shell only/);
  await app.waitFor(/rows 1–\d+ of \d+ ↓/);
  // The commands may sit below the first screen once the proxy's health is shown: at the end, then.
  await app.press('G');
  await app.waitFor('Nothing was changed and the client was not started.', '$ read -rs ANTHROPIC_AUTH_TOKEN && export ANTHROPIC_AUTH_TOKEN');
  await app.press(KEY.enter);
  await app.waitFor('Start refused');
  assert.deepEqual(app.exits, []);
  app.unmount();
});

test('the proxy turned unhealthy since the plan was shown: shown again for review instead of starting', async () => {
  let healthy = true;
  const m = setup({ http: fakeHttp({ health: () => (healthy ? reply.healthOk() : reply.healthDegraded()) }) });
  const app = renderApp(m.deps);
  await app.press('2');
  await app.waitFor('proxy → http://127.0.0.1:9801');
  healthy = false;
  await app.press(KEY.enter);
  await app.waitFor('The situation changed since you looked', 'direct → http://gw.test:8080');
  assert.deepEqual(app.exits, []);
  await app.press(KEY.enter);
  await waitExit(app.exits);
  assert.equal(handoverOf(app.exits).request.env.ANTHROPIC_BASE_URL, 'http://gw.test:8080');
});

test('coming back from the client: the Start screen shows its exit code; esc goes home', async () => {
  const m = setup();
  const app = renderApp(m.deps, { resume: { screen: 'start', lastClient: { command: 'claude', exitCode: 3 } } });
  await app.waitFor('gwctl › Start client', '⚠ claude exited with code 3', 'proxy → http://127.0.0.1:9801');
  await app.press(KEY.escape);
  await app.waitFor('gwctl › Home', 'claude exited with code 3');
  app.unmount();
});

function waitExit(exits: unknown[]): Promise<boolean> {
  return waitFor(() => exits.length > 0, { timeoutMs: 5000, what: 'the app to hand over' });
}

test('c chooses another client: the Codex plan (direct route, /v1, its own CODEX_HOME, a served model); the handover carries the isolation', async () => {
  const m = setup({ env: { MSGAPI_AUTH_TOKEN: TEST_KEY, OPENAI_API_KEY: 'sk-openai-vendor-key-123' } });
  writeFileSync(join(m.sandbox.bin, 'codex'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  const app = renderApp(m.deps);
  await app.press('2');
  await app.waitFor('proxy → http://127.0.0.1:9801');
  await app.press('c');
  const frame = flat(await app.waitFor('Client', 'codex', 'Isolated', 'CODEX_HOME'));
  assert.match(frame, /direct → http:\/\/[^ ]+\/v1/);
  assert.match(frame, /the cache proxy is for messages-protocol clients/);
  // The harness keeps the key in ANTHROPIC_AUTH_TOKEN too: a vendor variable for Codex.
  assert.match(frame, /Stripped +ANTHROPIC_AUTH_TOKEN, OPENAI_API_KEY/);
  assert.match(frame, /gwctl start --profile codex/);
  await app.press(KEY.enter);
  await waitExit(app.exits);
  const h = handoverOf(app.exits);
  assert.equal(h.request.file, join(m.sandbox.bin, 'codex'));
  assert.equal(h.request.isolation?.kind, 'codex');
  assert.match(h.request.isolation!.spec.files[0]!.content, /wire_api = "responses"/);
  assert.equal(h.request.env.OPENAI_API_KEY, undefined, 'the vendor key stays away from the client');
  assert.equal(h.request.env.MSGAPI_AUTH_TOKEN, TEST_KEY, 'Codex reads the key through env_key');
});
