// Proxy and Acceptance, with the proxy operations faked: the status with findings; an action is
// planned and shown before it runs (options f/d plan again), its output streams into a scrollable
// pane, esc cancels it; a refused plan cannot be confirmed; acceptance shows each layer running,
// then results with cause codes and evidence.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CheckReport } from '../../core/proxy/proxy-causes.ts';
import { deferred, fakeProxy, flat, KEY, operationResult, plannedChange, renderApp, statusReport, machinesForThisFile } from './tui-harness.tsx';

const setup = machinesForThisFile();

test('proxy: status rows and findings with cause, remedy and commands; the command by hand', async () => {
  const report = statusReport({
    ok: true,
    definition: { kind: 'systemd', file: '/h/.config/systemd/user/cache-fix-proxy.service', exists: false, debug: false, bodyAltering: [], runs: null },
    checks: [
      { id: 'proxy.installed', status: 'pass', cause: 'OK', observed: 'cache-fix-proxy@4.2.1 in /opt/npm', remedy: null, commands: [] },
      { id: 'proxy.service', status: 'warn', cause: 'SERVICE_NOT_INSTALLED', observed: 'no service definition at ~/.config/systemd/user/cache-fix-proxy.service', remedy: 'For long-term use, validate in the foreground first, then install the service (rule 8).', commands: ['gwctl proxy service install'] },
    ],
  });
  const m = setup({ proxy: fakeProxy({ status: async () => report }) });
  const app = renderApp(m.deps);
  await app.press('4');
  const frame = await app.waitFor('gwctl › Proxy', 'Installed', 'cache-fix-proxy@4.2.1 in /opt/npm', 'SERVICE_NOT_INSTALLED');
  assert.match(frame, /⚠ Definition +not installed/);
  assert.match(frame, /✔ Health +GET http:\/\/127\.0\.0\.1:9801\/health → 200/);
  assert.match(frame, /› Install 4\.2\.1/);
  assert.match(frame, /By hand: \$ gwctl proxy install/);
  await app.waitFor(/rows 1–\d+ of \d+ ↓ · J\/K scroll/);
  await app.press('J', 'J', 'J');
  await app.waitFor('$ gwctl proxy service install', /↑ rows \d+–(\d+) of \1 · J\/K scroll/);
  await app.press('j', 'j');
  await app.waitFor('› Install service', 'By hand: $ gwctl proxy service install');
  app.unmount();
});

test('proxy: an action is planned and confirmed, its output streams, the result has the steps; f plans again with force', async () => {
  const finish = deferred<void>();
  const proxy = fakeProxy({
    plan: async (action, options) =>
      plannedChange(action, { backups: options?.force ? ['/h/.config/systemd/user/cache-fix-proxy.service'] : [], notes: ['the proxy keeps running until it is restarted'] }),
    run: async (action, options) => {
      for (const line of ['added 1 package in 2s', 'cache-fix-proxy@4.2.1', 'checking /health']) options?.onOutput?.(line);
      await finish.promise;
      return operationResult(action, { steps: [{ command: 'npm install -g --no-audit --no-fund cache-fix-proxy@4.2.1', exitCode: 0, output: '' }], health: { state: 'ok', healthUrl: 'x', failedExtensions: [], observed: 'GET http://127.0.0.1:9801/health → 200 {"status":"ok"}' } });
    },
  });
  const m = setup({ proxy });
  const app = renderApp(m.deps);
  await app.press('4');
  await app.waitFor('› Install 4.2.1', 'Installed');
  await app.press('j', 'j', KEY.enter);
  const confirm = flat(await app.waitFor('Install service?', 'What will change:'));
  assert.match(confirm, /\$ npm install -g --no-audit --no-fund cache-fix-proxy@4\.2\.1 \(install the pinned version\)/);
  assert.match(confirm, /the proxy keeps running until it is restarted/);
  assert.match(confirm, /f force: off d debug logs: off r regression run: off/);
  await app.press('f');
  await app.waitFor('force: on', 'back up /h/.config/systemd/user/cache-fix-proxy.service');
  assert.deepEqual(proxy.calls.filter((c) => c.op === 'plan').map((c) => c.options?.force), [false, true]);
  const statusCalls = proxy.calls.filter((c) => c.op === 'status').length;
  await app.press('y');
  const running = await app.waitFor('Install service…', 'added 1 package in 2s', 'checking /health', 'lines 1–3 of 3 (following)');
  assert.match(running, /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Install service… \d+\.\ds/);
  finish.resolve();
  const done = await app.waitFor('✔ Install service: installed cache-fix-proxy@4.2.1', '→ exit 0', 'health: GET');
  assert.match(done, /By hand: \$ gwctl proxy service install --force/);
  const run = proxy.calls.find((c) => c.op === 'run')!;
  assert.deepEqual([run.action, run.options?.force, run.options?.debug], ['service-install', true, false]);
  await app.press(KEY.enter);
  await app.waitFor('› Install service', 'Actions');
  assert.ok(proxy.calls.filter((c) => c.op === 'status').length > statusCalls, 'the status is read again after an action');
  app.unmount();
});

test('proxy: esc cancels a running action (its signal is aborted) and the result says so', async () => {
  const proxy = fakeProxy({
    run: (action, options) =>
      new Promise((resolve) => {
        for (let i = 1; i <= 40; i++) options?.onOutput?.(`restart output line ${i}`);
        options?.signal?.addEventListener('abort', () => resolve(operationResult(action, { ok: false, exitCode: 130, summary: 'cancelled before the restart finished', steps: [{ command: 'systemctl --user restart cache-fix-proxy', exitCode: null, output: '' }] })));
      }),
  });
  const m = setup({ proxy });
  const app = renderApp(m.deps);
  await app.press('4');
  await app.waitFor('› Install 4.2.1', 'Installed');
  await app.press('j', 'j', 'j', 'j', KEY.enter);
  await app.waitFor('Restart service?');
  await app.press(KEY.enter);
  await app.waitFor('restart output line 40', 'of 40 (following)');
  await app.press('k', 'k', 'k');
  const scrolled = await app.waitFor(/lines \d+–37 of 40\b/);
  assert.ok(!scrolled.includes('(following)'));
  await app.press('G');
  await app.waitFor('of 40 (following)');
  await app.press(KEY.escape);
  const done = await app.waitFor('✖ Restart service: cancelled before the restart finished', '→ exit none');
  assert.ok(done.includes('By hand: $ gwctl proxy service restart'));
  const run = proxy.calls.find((c) => c.op === 'run')!;
  assert.equal(run.options?.signal?.aborted, true);
  app.unmount();
});

test('proxy: a refused plan shows cause and remedy and cannot be confirmed; d asks to confirm debug logging', async () => {
  const proxy = fakeProxy({
    plan: async (action, options) =>
      options?.debug
        ? plannedChange(action, { environment: { CACHE_FIX_DEBUG: '1', CACHE_FIX_PROXY_UPSTREAM: 'http://gw.test:8080' } })
        : plannedChange(action, { refused: { cause: 'IN_CLIENT_SESSION', message: 'this terminal runs inside a client session that uses port 9801', remedy: 'Run it from another terminal (rule 5).', commands: ['gwctl proxy service install'], exitCode: 1 } }),
  });
  const m = setup({ proxy });
  const app = renderApp(m.deps);
  await app.press('4');
  await app.waitFor('Installed');
  await app.press('j', 'j', KEY.enter);
  const refused = flat(await app.waitFor('refused [IN_CLIENT_SESSION]', 'Nothing was changed.'));
  assert.match(refused, /→ Run it from another terminal \(rule 5\)\./);
  await app.press('y');
  await app.waitFor('refused [IN_CLIENT_SESSION]');
  assert.equal(proxy.calls.filter((c) => c.op === 'run').length, 0, 'nothing ran');
  await app.press('d');
  const debug = flat(await app.waitFor('debug logs: on', 'confirm nothing sensitive is logged'));
  assert.match(debug, /CACHE_FIX_DEBUG=1 captured in the service definition/);
  assert.match(debug, /y\/enter go ahead \(debug confirmed\)/);
  await app.press('y');
  await app.waitFor('✔ Install service');
  const run = proxy.calls.find((c) => c.op === 'run')!;
  assert.deepEqual([run.action, run.options?.debug, run.options?.confirmDebug], ['service-install', true, true]);
  app.unmount();
});

test('proxy: without proxy operations the screen says so', async () => {
  const m = setup({ proxy: null });
  const app = renderApp(m.deps);
  await app.press('4');
  await app.waitFor('The proxy operations are not available in this build of gwctl.');
  app.unmount();
});

test('acceptance: each layer shows as it runs, then results with cause codes and evidence', async () => {
  const steps = { proxy: deferred<void>(), routed: deferred<void>() };
  const report: CheckReport = {
    schemaVersion: 1,
    ok: false,
    checks: [
      { id: 'proxy_running', status: 'pass', cause: 'OK', observed: 'GET http://127.0.0.1:9801/health → 200 {"status":"ok"}', remedy: null, commands: [] },
      { id: 'claude_routed', status: 'fail', cause: 'PROXY_UPSTREAM_DEFAULT', observed: 'the client answered 401; diagnosis: proxy.upstream', remedy: 'Set CACHE_FIX_PROXY_UPSTREAM to http://gw.test:8080', commands: ['export CACHE_FIX_PROXY_UPSTREAM=http://gw.test:8080'] },
      { id: 'cache_observed', status: 'skip', cause: null, observed: 'skipped: no session went through the proxy', remedy: null, commands: [] },
    ],
    layers: [
      { id: 'proxy_running', evidence: ['GET /health 200 at 10:00:01'], diagnosis: null },
      { id: 'claude_routed', evidence: ['claude -p "Reply with one word" → exit 1'], diagnosis: null },
      { id: 'cache_observed', evidence: [], diagnosis: null },
    ],
  };
  const proxy = fakeProxy({
    acceptance: async (options) => {
      options?.onProgress?.('proxy_running');
      await steps.proxy.promise;
      options?.onProgress?.('claude_routed');
      await steps.routed.promise;
      options?.onProgress?.('cache_observed');
      return report;
    },
  });
  const m = setup({ proxy });
  const app = renderApp(m.deps);
  await app.press('5');
  await app.waitFor('Three layers, in order:', 'claude_routed starts the client once');
  await app.press(KEY.enter);
  const first = await app.waitFor('proxy_running running…', 'claude_routed waiting');
  assert.match(first, /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Proxy acceptance \d+\.\ds/);
  steps.proxy.resolve();
  await app.waitFor('proxy_running done', 'claude_routed running…', 'cache_observed waiting');
  steps.routed.resolve();
  const done = flat(await app.waitFor('✖ claude_routed', 'PROXY_UPSTREAM_DEFAULT', 'FAILED: 1 passed'));
  assert.match(done, /\$ export CACHE_FIX_PROXY_UPSTREAM=http:\/\/gw\.test:8080/);
  assert.match(done, /Evidence · claude_routed claude -p "Reply with one word" → exit 1/);
  assert.match(done, /○ cache_observed skipped: no session went through the proxy/);
  app.unmount();
});

test('acceptance: esc cancels it', async () => {
  let signal: AbortSignal | undefined;
  const proxy = fakeProxy({
    acceptance: (options) =>
      new Promise((_resolve, reject) => {
        signal = options?.signal;
        options?.onProgress?.('claude_routed');
        signal?.addEventListener('abort', () => reject(Object.assign(new Error('acceptance cancelled'), { remedy: 'Run it again when ready.' })));
      }),
  });
  const m = setup({ proxy });
  const app = renderApp(m.deps);
  await app.press('5');
  await app.waitFor('Three layers');
  await app.press(KEY.enter);
  await app.waitFor('claude_routed running…');
  await app.press(KEY.escape);
  await app.waitFor('acceptance cancelled', '→ Run it again when ready.');
  assert.equal(signal?.aborted, true);
  await app.press(KEY.escape);
  await app.waitFor('gwctl › Home');
  app.unmount();
});
