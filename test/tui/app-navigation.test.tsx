// The app as a whole: the home status panel fills in (base URL and its source, the key masked and
// verified, proxy health with version and service, the route start would take), the menu moves with
// arrows and j/k, enter opens, esc goes back, ? shows help on every screen, q and ctrl-c leave.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HOME_MENU } from '../../tui/screens/home-screen.tsx';
import { waitFor } from '../helpers/wait-for.ts';
import { fakeHttp, fakeProxy, GATEWAY, KEY, renderApp, reply, statusReport, TEST_KEY, machinesForThisFile } from './tui-harness.tsx';

const setup = machinesForThisFile();

test('home: the status panel fills in with base URL, masked verified key, proxy and route', async () => {
  const { deps } = setup();
  const app = renderApp(deps);
  const frame = await app.waitFor('verified: 1 model', '✔ ok · cache-fix-proxy@4.2.1', 'service enabled/active (systemd)', 'proxy → http://127.0.0.1:9801');
  assert.match(frame, new RegExp(`Base URL +${GATEWAY.replace(/[.:/]/g, '\\$&')} \\(env GWCTL_BASE_URL\\)`));
  assert.match(frame, /Key +ANTHROPIC_AUTH_TOKEN sk-…Ab12/);
  assert.match(frame, /the proxy is healthy/);
  for (const item of HOME_MENU) assert.ok(frame.includes(item.label), item.label);
  assert.ok(app.frames.every((f) => !f.includes(TEST_KEY)), 'the full key is never shown');
  app.unmount();
});

test('home: a degraded proxy, an unset key, and a rejected key are shown as such', async () => {
  const degraded = setup({ http: fakeHttp({ health: reply.healthDegraded() }), proxy: fakeProxy({ status: async () => statusReport({ installation: { ...statusReport().installation, pinned: false, active: { name: 'cache-fix-proxy', version: '4.3.0', packageDir: '/x', binPath: null } } }) }) });
  const a = renderApp(degraded.deps);
  await a.waitFor('⚠ degraded (sort-stabilization.mjs)', 'cache-fix-proxy@4.3.0', '(not 4.2.1)', 'direct → http://gw.test:8080', 'the proxy is degraded');
  a.unmount();
  const noKey = setup({ env: { ANTHROPIC_AUTH_TOKEN: undefined } });
  const b = renderApp(noKey.deps);
  await b.waitFor('ANTHROPIC_AUTH_TOKEN ✖ not set in this shell', 'start refused:', 'TOKEN_MISSING_IN_SHELL');
  b.unmount();
  const rejected = setup({ http: fakeHttp({ models: reply.unauthorized() }) });
  const c = renderApp(rejected.deps);
  await c.waitFor('✖ KEY_REJECTED');
  c.unmount();
});

test('navigation: arrows and j/k move, enter opens, esc goes back, digits jump', async () => {
  const { deps } = setup();
  const app = renderApp(deps);
  await app.waitFor('› 1 Verify key');
  await app.press(KEY.down, 'j');
  await app.waitFor('› 3 Diagnose');
  await app.press(KEY.up);
  await app.waitFor('› 2 Start client');
  await app.press('k', 'k');
  await app.waitFor('› 9 Quit', 'gwctl › Home');
  await app.press('j', KEY.enter);
  await app.waitFor('gwctl › Verify key', '✔ models.list');
  await app.press(KEY.escape);
  await app.waitFor('gwctl › Home');
  await app.press('7');
  await app.waitFor('gwctl › Settings', 'tui.afterClient');
  await app.press(KEY.escape);
  await app.waitFor('gwctl › Home');
  assert.deepEqual(app.exits, []);
  app.unmount();
});

test('? shows the help of every screen over it, any key closes it', async () => {
  const { deps } = setup();
  const app = renderApp(deps);
  const titles = ['Verify key', 'Start client', 'Diagnose', 'Proxy', 'Acceptance', 'Client config', 'Settings', 'Support'];
  await app.press('?');
  await app.waitFor('Help · Home', 'Everywhere', 'ctrl-c quit at once');
  await app.press('x');
  await app.waitFor('Base URL', /› 1 Verify key/);
  for (const [i, title] of titles.entries()) {
    await app.press(String(i + 1));
    await app.waitFor(`gwctl › ${title}`);
    await app.press('?');
    const help = await app.waitFor(`Help · ${title}`, 'On this screen', 'Press any key to close this help.');
    assert.ok(help.split('\n').length <= 24, `${title}: help fits 80x24`);
    await app.press('q');
    await app.waitFor(`gwctl › ${title}`);
    assert.ok(!app.frame().includes(`Help · ${title}`));
    await app.press(KEY.escape);
    await app.waitFor('gwctl › Home');
  }
  assert.deepEqual(app.exits, [], 'q closed the help, it did not quit');
  app.unmount();
});

test('q quits with 0 and ctrl-c with 130; Quit in the menu quits', async () => {
  const first = renderApp(setup().deps);
  await first.waitFor('gwctl › Home');
  await first.press('q');
  assert.deepEqual(first.exits, [{ kind: 'quit', code: 0 }]);
  const second = renderApp(setup().deps);
  await second.waitFor('gwctl › Home');
  await second.press('3', KEY.ctrlC);
  assert.deepEqual(second.exits, [{ kind: 'quit', code: 130 }]);
  const third = renderApp(setup().deps);
  await third.waitFor('gwctl › Home');
  await third.press('9');
  assert.deepEqual(third.exits, [{ kind: 'quit', code: 0 }]);
});

test('r on home looks again', async () => {
  const m = setup();
  const app = renderApp(m.deps);
  await app.waitFor('verified: 1 model');
  const before = m.http.calls.length;
  await app.press('r');
  await waitFor(() => m.http.calls.length >= before + 3, { timeoutMs: 5000, what: 'the panel to probe again' });
  await app.waitFor('verified: 1 model');
  app.unmount();
});
