// The proxy engine with a recording runner in place of npm, cache-fix-proxy and the supervisor:
// status (not installed, 4.2.1, another version, degraded, contested port), install and upgrade
// pinned to 4.2.1, rule 5, service install by auth path, enable without a definition, debug
// confirmation, backups and the spec 9.4 reminder, launchd reloads, uninstall, dry run, abort.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { resolveSettings } from '../../../core/config/resolve-settings.ts';
import { SettingsFile } from '../../../core/config/settings-file.ts';
import { spawnRunner } from '../../../core/proxy/command-runner.ts';
import { createProxyOperations } from '../../../core/proxy/proxy-operations.ts';
import { RecordingRunner, type RecordedCall } from '../../../core/proxy/recording-runner.ts';
import { FakeProxy } from '../../helpers/fake-proxy.ts';
import { ObservingProxy } from '../../fixtures/gwctl-proxy/observing-proxy.ts';
import { FAKE_CLIENT, fakeInstalledPackage } from '../../fixtures/gwctl-proxy/proxy-sandbox.ts';

const roots: string[] = [];
let healthy: FakeProxy;
let degraded: FakeProxy;
before(async () => {
  [healthy, degraded] = await Promise.all([FakeProxy.start('ok'), FakeProxy.start('degraded')]);
});
after(async () => {
  await Promise.all([healthy.close(), degraded.close()]);
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

interface Machine {
  home: string;
  prefix: string;
  env: NodeJS.ProcessEnv;
  runner: RecordingRunner;
  unit: string;
  ops: (extra?: { env?: NodeJS.ProcessEnv; procRoot?: string; signal?: AbortSignal }) => ReturnType<typeof createProxyOperations>;
  calls: (tool?: string) => string[];
}

/** What `cache-fix-proxy install-service` writes, from the environment it was given. */
function writeUnit(home: string, call: RecordedCall): void {
  const dir = join(home, '.config', 'systemd', 'user');
  mkdirSync(dir, { recursive: true });
  const env = Object.entries(call.env).filter(([k]) => ['CACHE_FIX_PROXY_PORT', 'CACHE_FIX_PROXY_UPSTREAM', 'CACHE_FIX_DEBUG'].includes(k));
  writeFileSync(join(dir, 'cache-fix-proxy.service'), `[Service]\nExecStart=/usr/bin/node /p/dist/cache-fix-proxy.js server\n${env.map(([k, v]) => `Environment=${k}=${v}`).join('\n')}\n`);
  writeFileSync(join(dir, 'cache-fix-proxy-healthcheck.service'), '[Service]\n');
  writeFileSync(join(dir, 'cache-fix-proxy-healthcheck.timer'), '[Timer]\n');
}

function machine(options: { env?: NodeJS.ProcessEnv; answers?: Record<string, { output: string; exitCode: number }>; npmInstalls?: string; passthrough?: boolean } = {}): Machine {
  const root = mkdtempSync(join(tmpdir(), 'gwctl-proxy-ops-'));
  roots.push(root);
  const home = join(root, 'home');
  const prefix = join(root, 'prefix');
  const bin = join(root, 'bin');
  mkdirSync(bin, { recursive: true });
  mkdirSync(home, { recursive: true });
  writeFileSync(join(bin, 'claude'), `#!/bin/sh\nexec '${process.execPath}' '${FAKE_CLIENT}' "$@"\n`, { mode: 0o755 });
  const env: NodeJS.ProcessEnv = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    PATH: `${bin}:/usr/bin:/bin`,
    npm_config_prefix: prefix,
    CACHE_FIX_SERVICE_PLATFORM: 'linux',
    GWCTL_BASE_URL: 'https://gw.example.com',
    GWCTL_PROXY_URL: healthy.url,
    GWCTL_PROXY_PACKAGE: 'cache-fix-proxy',
    ...options.env,
  };
  const runner = new RecordingRunner({
    intercept: ['systemctl', 'launchctl', 'npm', 'cache-fix-proxy', 'cli.js'],
    passthrough: options.passthrough ? spawnRunner : undefined,
    answer: (call) => {
      const line = [call.command.split('/').pop(), ...call.args].join(' ');
      if (call.command === 'npm' && call.args[0] === 'install') fakeInstalledPackage(prefix, options.npmInstalls ?? '4.2.1');
      if (call.args[0] === 'install-service') writeUnit(home, call);
      if (options.answers?.[line]) return options.answers[line];
      if (line.includes(' is-enabled ')) return { output: 'disabled', exitCode: 1 };
      if (line.includes(' is-active ')) return { output: 'inactive', exitCode: 3 };
      return undefined;
    },
  });
  return {
    home,
    prefix,
    env,
    runner,
    unit: join(home, '.config', 'systemd', 'user', 'cache-fix-proxy.service'),
    ops: (extra = {}) => {
      const e = { ...env, ...extra.env };
      return createProxyOperations({ env: e, cwd: home, settings: resolveSettings({ file: new SettingsFile(e), env: e }), run: runner.run, platform: 'linux', uid: 501, procRoot: extra.procRoot ?? join(root, 'no-proc'), healthWaitMs: 2_000, observationWaitMs: 2_000 });
    },
    calls: (tool) => runner.lines(tool),
  };
}

/** The checks of a status report that found something (warn or fail). */
const problems = (report: { checks: Array<{ status: string; cause: string | null; observed: string }> }) => report.checks.filter((c) => c.status === 'warn' || c.status === 'fail');

describe('status', () => {
  test('not installed: flagged, nothing else assumed', async () => {
    const m = machine();
    const report = await m.ops().status();
    assert.equal(report.ok, false);
    assert.equal(report.installation.installed, false);
    assert.deepEqual(problems(report).map((c) => c.cause), ['PROXY_NOT_INSTALLED', 'SERVICE_NOT_INSTALLED'], "this shell's unset variable is not the running proxy's upstream");
    assert.match(report.checks.find((c) => c.id === 'proxy.upstream')!.observed, /^unknown: the running proxy's upstream cannot be read/);
    assert.equal(report.definition?.exists, false);
    assert.match(report.supervisor.observed, /cache-fix-proxy disabled\/inactive/);
  });

  test('installed 4.2.1 with a definition for this service, enabled and healthy: nothing to fix', async () => {
    const m = machine({ answers: { 'systemctl --user is-enabled cache-fix-proxy': { output: 'enabled', exitCode: 0 }, 'systemctl --user is-active cache-fix-proxy': { output: 'active', exitCode: 0 } } });
    const dir = fakeInstalledPackage(m.prefix, '4.2.1');
    writeUnit(m.home, { command: 'x', args: [], env: { CACHE_FIX_PROXY_PORT: String(new URL(healthy.url).port), CACHE_FIX_PROXY_UPSTREAM: 'https://gw.example.com' } });
    const report = await m.ops().status();
    assert.deepEqual(problems(report), [], JSON.stringify(report.checks, null, 2));
    assert.equal(report.ok, true);
    assert.equal(report.installation.active?.version, '4.2.1');
    assert.equal(report.installation.active?.packageDir, dir);
    assert.equal(report.definition?.upstream, 'https://gw.example.com');
    assert.equal(report.supervisor.service.active, 'active');
    assert.equal(report.health.state, 'ok');
    assert.equal(report.upstream.check.status, 'pass');
  });

  test("a running proxy started elsewhere: its own environment tells the upstream, not this shell's (issue: FAIL for a correct proxy)", async () => {
    const m = machine();
    fakeInstalledPackage(m.prefix, '4.2.1');
    const port = Number(new URL(healthy.url).port);
    const proc = join(m.home, 'proc');
    mkdirSync(join(proc, 'net'), { recursive: true });
    writeFileSync(join(proc, 'net', 'tcp'), `hdr\n   0: 0100007F:${port.toString(16).toUpperCase().padStart(4, '0')} 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 888 1\n`);
    mkdirSync(join(proc, '21', 'fd'), { recursive: true });
    writeFileSync(join(proc, '21', 'cmdline'), 'node\0/opt/npm/bin/cache-fix-proxy\0server\0');
    writeFileSync(join(proc, '21', 'environ'), `CACHE_FIX_PROXY_PORT=${port}\0CACHE_FIX_PROXY_UPSTREAM=https://gw.example.com\0`);
    symlinkSync('socket:[888]', join(proc, '21', 'fd', '4'));
    const report = await m.ops({ procRoot: proc }).status();
    const upstream = report.checks.find((c) => c.id === 'proxy.upstream')!;
    assert.equal(upstream.status, 'pass', upstream.observed);
    assert.match(upstream.observed, /CACHE_FIX_PROXY_UPSTREAM=https:\/\/gw\.example\.com in the environment of the running proxy \(pid 21\)/);
    assert.ok(!problems(report).some((c) => c.cause === 'PROXY_UPSTREAM_DEFAULT'));
    // The same proxy started with the default: that is named, from its environment.
    writeFileSync(join(proc, '21', 'environ'), `CACHE_FIX_PROXY_PORT=${port}\0`);
    const left = (await m.ops({ procRoot: proc, env: { CACHE_FIX_PROXY_UPSTREAM: 'https://gw.example.com' } }).status()).checks.find((c) => c.id === 'proxy.upstream')!;
    assert.deepEqual([left.status, left.cause], ['fail', 'PROXY_UPSTREAM_DEFAULT']);
  });

  test('another version is flagged; a degraded /health is reported with its failed extensions', async () => {
    const m = machine({ env: { GWCTL_PROXY_URL: degraded.url } });
    fakeInstalledPackage(m.prefix, '4.3.0');
    const report = await m.ops().status();
    assert.equal(report.installation.pinned, false);
    const causes = problems(report).map((c) => c.cause);
    assert.ok(causes.includes('PROXY_VERSION_MISMATCH'), causes.join());
    assert.ok(causes.includes('PROXY_DEGRADED'), causes.join());
    assert.deepEqual(report.health.failedExtensions, ['sort-stabilization.mjs']);
    assert.match(report.checks.find((c) => c.cause === 'PROXY_VERSION_MISMATCH')!.observed, /cache-fix-proxy@4\.3\.0 .* not 4\.2\.1/);
  });

  test('several processes on the port (rule 6); the supervisor\'s own is not offered for killing', async () => {
    const m = machine({
      env: { GWCTL_PROXY_URL: 'http://127.0.0.1:9801' },
      answers: { 'systemctl --user is-active cache-fix-proxy': { output: 'active', exitCode: 0 }, 'systemctl --user show --property MainPID --value cache-fix-proxy': { output: '11', exitCode: 0 } },
    });
    const proc = join(m.home, 'proc');
    mkdirSync(join(proc, 'net'), { recursive: true });
    writeFileSync(join(proc, 'net', 'tcp6'), 'hdr\n   0: 00000000000000000000000001000000:2649 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 777 1\n');
    for (const pid of ['10', '11']) {
      mkdirSync(join(proc, pid, 'fd'), { recursive: true });
      writeFileSync(join(proc, pid, 'cmdline'), `node\0/x/cache-fix-proxy\0server\0`);
      symlinkSync('socket:[777]', join(proc, pid, 'fd', '5'));
    }
    const report = await m.ops({ procRoot: proc }).status();
    assert.equal(report.port.contested, true);
    assert.equal(report.port.processes.length, 2);
    const contested = report.checks.find((c) => c.cause === 'PROXY_PORT_CONTESTED')!;
    assert.deepEqual(contested.commands, ['kill 10   # node /x/cache-fix-proxy server']);
    assert.match(contested.observed, /11 is the supervisor's/);
  });

  test('no user supervisor (a container): a clear reason', async () => {
    const m = machine({ answers: { 'systemctl --user is-enabled cache-fix-proxy': { output: 'Failed to connect to bus: No medium found', exitCode: 1 } } });
    const report = await m.ops().status();
    assert.equal(report.supervisor.available, false);
    assert.match(report.supervisor.unavailableReason!, /no systemd user manager answers.*containers/);
  });
});

describe('install and upgrade', () => {
  test('install runs npm install -g <name>@4.2.1 and verifies the version; another version never reaches npm', async () => {
    const m = machine();
    const done = await m.ops().run('install');
    assert.equal(done.ok, true, done.summary);
    assert.deepEqual(m.calls('npm'), ['npm install -g --no-audit --no-fund cache-fix-proxy@4.2.1']);
    assert.deepEqual(done.installed, { name: 'cache-fix-proxy', version: '4.2.1', packageDir: join(m.prefix, 'lib', 'node_modules', 'cache-fix-proxy') });
    const refused = await m.ops().run('install', { package: 'cache-fix-proxy@4.3.0' });
    assert.equal(refused.exitCode, 2);
    assert.equal(refused.cause, 'VERSION_REFUSED');
    assert.equal(m.calls('npm').length, 1, 'npm was not called again');
  });

  test('a package that turns out to be another version after installing fails the check', async () => {
    const m = machine({ npmInstalls: '4.3.0' });
    const done = await m.ops().run('install');
    assert.equal(done.ok, false);
    assert.equal(done.cause, 'PROXY_VERSION_MISMATCH');
  });

  test('upgrade: definition backed up, npm, supervisor restart, /health; the spec 9.4 reminder', async () => {
    const m = machine();
    writeUnit(m.home, { command: 'x', args: [], env: { CACHE_FIX_PROXY_UPSTREAM: 'https://gw.example.com' } });
    const plan = await m.ops().plan('upgrade');
    assert.match(plan.bodyAltering!.reminder, /short session and a resume run/);
    assert.deepEqual(plan.bodyAltering!.commands.map((c) => c.replace(/:\d+/, ':PORT')), ["ANTHROPIC_BASE_URL=http://127.0.0.1:PORT claude -p 'Reply with exactly one word: ok'", "ANTHROPIC_BASE_URL=http://127.0.0.1:PORT claude --continue -p 'Reply with exactly one word: ok'"]);
    assert.deepEqual(plan.backups, [m.unit]);
    const done = await m.ops().run('upgrade');
    assert.equal(done.ok, true, done.summary);
    assert.deepEqual(m.calls().filter((l) => !l.includes('is-')), ['npm install -g --no-audit --no-fund cache-fix-proxy@4.2.1', 'systemctl --user daemon-reload', 'systemctl --user restart cache-fix-proxy']);
    assert.equal(done.health?.state, 'ok');
    assert.equal(done.backups.length, 1);
    assert.equal(readFileSync(done.backups[0]!, 'utf8'), readFileSync(m.unit, 'utf8'));
    // Now gwctl knows the loaded definition: the next upgrade restarts without a reload.
    m.runner.calls.length = 0;
    await m.ops().run('upgrade');
    assert.deepEqual(m.calls('systemctl'), ['systemctl --user restart cache-fix-proxy']);
  });

  test('upgrade with --regress runs a short session and a resume run before and after', async () => {
    const root = mkdtempSync(join(tmpdir(), 'gwctl-proxy-regress-'));
    roots.push(root);
    const proxy = await ObservingProxy.start({ home: join(root, 'home'), key: 'sk-regress-key-1234' });
    try {
      mkdirSync(join(root, 'home'), { recursive: true });
      const m = machine({ env: { GWCTL_PROXY_URL: proxy.url, HOME: join(root, 'home'), MSGAPI_AUTH_TOKEN: 'sk-regress-key-1234' }, passthrough: true });
      const done = await m.ops().run('upgrade', { regress: true });
      assert.equal(done.ok, true, done.summary);
      assert.ok(done.regression.every((r) => r.ok), JSON.stringify(done.regression, null, 2));
      assert.deepEqual(done.regression.map((r) => [r.phase, r.ok, r.runs.length]), [['before', true, 2], ['after', true, 2]]);
      assert.equal(proxy.requests, 4);
      assert.match(done.regression[0]!.runs[1]!.command, /claude --continue -p/);
    } finally {
      await proxy.close();
    }
  });
});

describe('rule 5: refused inside a client session that talks through the proxy port', () => {
  for (const action of ['upgrade', 'service-restart', 'service-uninstall'] as const) {
    test(action, async () => {
      const m = machine();
      fakeInstalledPackage(m.prefix, '4.2.1');
      writeUnit(m.home, { command: 'x', args: [], env: {} });
      const done = await m.ops({ env: { MSGAPI_BASE_URL: healthy.url } }).run(action);
      assert.equal(done.ok, false);
      assert.equal(done.cause, 'IN_CLIENT_SESSION');
      assert.equal(done.exitCode, 1);
      assert.match(done.summary, /MSGAPI_BASE_URL=http:\/\/127\.0\.0\.1:\d+ in this environment.*cut off the session's own requests/);
      assert.match(done.remedy!, /external terminal/);
      assert.deepEqual(m.runner.calls, [], 'nothing was run');
    });
  }
});

describe('service', () => {
  for (const [auth, expected] of [['service', 'https://gw.example.com'], ['vendor', undefined], ['oauth', undefined]] as const) {
    test(`install for auth path ${auth}: CACHE_FIX_PROXY_UPSTREAM ${expected ?? 'left unset'}, then daemon-reload and enable --now`, async () => {
      const m = machine({ env: { GWCTL_AUTH: auth, CACHE_FIX_PROXY_UPSTREAM: 'https://relay.example.com', CACHE_FIX_DEBUG: '1' } });
      fakeInstalledPackage(m.prefix, '4.2.1');
      const done = await m.ops().run('service-install');
      assert.equal(done.ok, true, done.summary);
      const install = m.runner.calls.find((c) => c.args[0] === 'install-service')!;
      assert.equal(install.env.CACHE_FIX_PROXY_UPSTREAM, expected);
      assert.equal(install.env.CACHE_FIX_DEBUG, undefined, 'debug is never carried without confirmation');
      assert.equal(install.env.CACHE_FIX_PROXY_PORT, new URL(healthy.url).port);
      assert.deepEqual(m.calls('systemctl'), ['systemctl --user daemon-reload', 'systemctl --user enable --now cache-fix-proxy', 'systemctl --user enable --now cache-fix-proxy-healthcheck.timer']);
      assert.ok(done.plan.warnings.some((w) => /This shell has CACHE_FIX_PROXY_UPSTREAM=https:\/\/relay\.example\.com/.test(w)));
    });
  }

  test('enable without a definition fails with the spec explanation (systemd and launchd)', async () => {
    const m = machine();
    const linux = await m.ops().run('service-enable');
    assert.equal(linux.cause, 'SERVICE_NOT_INSTALLED');
    assert.match(linux.summary, /Enabling without `install-service` fails: systemctl answers "Unit cache-fix-proxy\.service not found"/);
    const mac = await m.ops({ env: { CACHE_FIX_SERVICE_PLATFORM: 'darwin' } }).run('service-enable');
    assert.match(mac.summary, /LaunchAgents\/com\.cnighswonger\.cache-fix-proxy\.plist.*property-list file/);
    assert.deepEqual(m.runner.calls, []);
  });

  test('debug logging needs an explicit confirmation (rule 7)', async () => {
    const m = machine();
    fakeInstalledPackage(m.prefix, '4.2.1');
    const refused = await m.ops().run('service-install', { debug: true });
    assert.equal(refused.cause, 'DEBUG_NOT_CONFIRMED');
    assert.equal(refused.exitCode, 2);
    assert.match(refused.summary, /header values .* redacted.*confirming that this context may be logged/);
    const done = await m.ops().run('service-install', { debug: true, confirmDebug: true });
    assert.equal(done.ok, true, done.summary);
    assert.equal(m.runner.calls.find((c) => c.args[0] === 'install-service')!.env.CACHE_FIX_DEBUG, '1');
  });

  test('install --force over a definition with a body-altering option: backup, reminder, restart', async () => {
    const m = machine();
    fakeInstalledPackage(m.prefix, '4.2.1');
    mkdirSync(join(m.home, '.config', 'systemd', 'user'), { recursive: true });
    writeFileSync(m.unit, '[Service]\nEnvironment=CACHE_FIX_BOOTSTRAP_MODE=block\n');
    const again = await m.ops().run('service-install');
    assert.equal(again.cause, 'SERVICE_ALREADY_INSTALLED');
    const done = await m.ops().run('service-install', { force: true });
    assert.equal(done.ok, true, done.summary);
    assert.match(done.plan.bodyAltering!.reasons[0]!, /bootstrap-defense block\/allowlist/);
    assert.equal(readFileSync(done.backups[0]!, 'utf8'), '[Service]\nEnvironment=CACHE_FIX_BOOTSTRAP_MODE=block\n');
    assert.deepEqual(m.runner.calls.find((c) => c.args[0] === 'install-service')!.args, ['install-service', '--force']);
    assert.equal(m.calls('systemctl').at(-1), 'systemctl --user restart cache-fix-proxy');
  });

  test('launchd: a changed definition is unloaded and loaded; an unchanged one is kickstarted', async () => {
    const m = machine({ env: { CACHE_FIX_SERVICE_PLATFORM: 'darwin' } });
    const plist = join(m.home, 'Library', 'LaunchAgents', 'com.cnighswonger.cache-fix-proxy.plist');
    mkdirSync(join(plist, '..'), { recursive: true });
    writeFileSync(plist, '<plist><dict><key>EnvironmentVariables</key><dict><key>CACHE_FIX_PROXY_PORT</key><string>9801</string></dict></dict></plist>\n');
    const first = await m.ops().run('service-restart');
    assert.equal(first.ok, true, first.summary);
    assert.deepEqual(m.calls('launchctl'), [`launchctl bootout gui/501 ${plist}`, `launchctl bootstrap gui/501 ${plist}`, 'launchctl enable gui/501/com.cnighswonger.cache-fix-proxy']);
    m.runner.calls.length = 0;
    await m.ops().run('service-restart');
    assert.deepEqual(m.calls('launchctl'), ['launchctl kickstart -k gui/501/com.cnighswonger.cache-fix-proxy']);
  });

  test('uninstall: backup, stop and disable, files removed, daemon-reload', async () => {
    const m = machine();
    writeUnit(m.home, { command: 'x', args: [], env: {} });
    const done = await m.ops().run('service-uninstall');
    assert.equal(done.ok, true, done.summary);
    assert.deepEqual(m.calls('systemctl'), ['systemctl --user disable --now cache-fix-proxy-healthcheck.timer', 'systemctl --user disable --now cache-fix-proxy', 'systemctl --user daemon-reload']);
    assert.deepEqual(readdirSync(join(m.home, '.config', 'systemd', 'user')).filter((f) => !f.includes('gwctl-backup')), []);
    assert.ok(existsSync(done.backups[0]!));
  });

  test('a supervisor that is not there stops the action with a clear reason', async () => {
    const m = machine({ answers: { 'systemctl --user daemon-reload': { output: 'System has not been booted with systemd as init system (PID 1). Can\'t operate.', exitCode: 1 } } });
    fakeInstalledPackage(m.prefix, '4.2.1');
    const done = await m.ops().run('service-install');
    assert.equal(done.cause, 'SUPERVISOR_UNAVAILABLE');
    assert.match(done.summary, /no systemd user manager answers/);
    assert.ok(existsSync(m.unit), 'the definition was written before');
  });
});

test('dry run: the plan, nothing run or written', async () => {
  const m = machine();
  fakeInstalledPackage(m.prefix, '4.2.1');
  const done = await m.ops().run('service-install', { dryRun: true });
  assert.equal(done.ok, true);
  assert.deepEqual(m.runner.calls, []);
  assert.equal(existsSync(m.unit), false);
  assert.match(done.plan.commands[0]!, /^CACHE_FIX_PROXY_UPSTREAM=https:\/\/gw\.example\.com CACHE_FIX_PROXY_PORT=\d+ \S+\/cache-fix-proxy install-service$/);
  assert.deepEqual(done.plan.commands.slice(1), ['systemctl --user daemon-reload', 'systemctl --user enable --now cache-fix-proxy', 'systemctl --user enable --now cache-fix-proxy-healthcheck.timer']);
  assert.ok(done.steps.every((s) => s.exitCode === null));
});

test('an aborted signal stops before the next step (exit 130)', async () => {
  const m = machine();
  const controller = new AbortController();
  controller.abort();
  const done = await m.ops().run('install', { signal: controller.signal });
  assert.equal(done.exitCode, 130);
  assert.deepEqual(m.runner.calls, []);
});
