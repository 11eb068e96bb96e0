import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { main } from '../../proxy/src/cli/main.ts';
import { fakeIo } from './helpers/fake-io.ts';
import { tempDir } from './helpers/temp-dir.ts';

const CAPTURED = {
  CACHE_FIX_PROXY_PORT: '9811',
  CACHE_FIX_PROXY_UPSTREAM: 'https://gateway.example.com/base%20path',
  CACHE_FIX_DEBUG: '1',
  HTTPS_PROXY: 'http://corp-proxy:3128',
  CACHE_FIX_THINKING_SANITIZE: 'v2',
};

function haveCommand(name: string, args: string[]): boolean {
  return spawnSync(name, args, { stdio: 'ignore' }).status === 0;
}

test('Linux: writes the unit plus healthcheck service and timer, capturing upstream, port and debug', async (t) => {
  const home = tempDir(t);
  const io = fakeIo({ HOME: home, USER: 'dev', ...CAPTURED }, 'linux');
  assert.equal(await main(['install-service'], io), 0);
  const dir = join(home, '.config', 'systemd', 'user');
  const unit = readFileSync(join(dir, 'cache-fix-proxy.service'), 'utf8');
  assert.match(unit, /^ExecStart=\S+ "\/opt\/node prefix\/lib\/node_modules\/cache-fix-proxy\/dist\/cache-fix-proxy.js" server$/m);
  assert.match(unit, /^Environment=CACHE_FIX_PROXY_PORT=9811$/m);
  assert.match(unit, /^Environment=CACHE_FIX_PROXY_UPSTREAM=https:\/\/gateway.example.com\/base%%20path$/m);
  assert.match(unit, /^Environment=CACHE_FIX_DEBUG=1$/m);
  assert.match(unit, /^Environment=HTTPS_PROXY=http:\/\/corp-proxy:3128$/m);
  assert.doesNotMatch(unit, /THINKING_SANITIZE/);
  assert.match(unit, /^Restart=always$/m);
  assert.match(unit, /^WantedBy=default.target$/m);
  const check = readFileSync(join(dir, 'cache-fix-proxy-healthcheck.service'), 'utf8');
  assert.match(check, /^Type=oneshot$/m);
  assert.match(check, / healthcheck --restart-unit cache-fix-proxy.service$/m);
  assert.match(check, /^Environment=CACHE_FIX_PROXY_PORT=9811$/m);
  const timer = readFileSync(join(dir, 'cache-fix-proxy-healthcheck.timer'), 'utf8');
  for (const line of ['OnBootSec=30s', 'OnUnitActiveSec=2min', 'AccuracySec=15s', 'Unit=cache-fix-proxy-healthcheck.service', 'WantedBy=timers.target']) {
    assert.ok(timer.split('\n').includes(line), line);
  }
  const output = io.out.join('');
  for (const step of ['systemctl --user daemon-reload', 'systemctl --user enable --now cache-fix-proxy', 'systemctl --user enable --now cache-fix-proxy-healthcheck.timer', 'loginctl enable-linger dev']) {
    assert.ok(output.includes(step), step);
  }
  assert.deepEqual(io.commands, []);
});

test('Linux: generated units pass systemd-analyze verify', { skip: haveCommand('systemd-analyze', ['--version']) ? false : 'systemd-analyze is not installed here' }, async (t) => {
  const home = tempDir(t);
  const runtime = tempDir(t);
  const io = fakeIo({ HOME: home, ...CAPTURED }, 'linux');
  // A real node path keeps verify's "is ExecStart executable" check meaningful; the script path need not exist.
  assert.equal(await main(['install-service'], io), 0);
  const dir = join(home, '.config', 'systemd', 'user');
  const files = ['cache-fix-proxy.service', 'cache-fix-proxy-healthcheck.service', 'cache-fix-proxy-healthcheck.timer'].map((f) => join(dir, f));
  const result = spawnSync('systemd-analyze', ['verify', '--user', ...files], { encoding: 'utf8', env: { ...process.env, HOME: home, XDG_RUNTIME_DIR: runtime }, timeout: 30_000 });
  assert.equal(result.status, 0, result.stderr);
  assert.doesNotMatch(result.stderr, /Unknown key|Invalid|ignoring|Failed/i);
});

test('already installed without --force exits 1; --force regenerates with the new settings', async (t) => {
  const home = tempDir(t);
  assert.equal(await main(['install-service'], fakeIo({ HOME: home, CACHE_FIX_PROXY_PORT: '9801' }, 'linux')), 0);
  const again = fakeIo({ HOME: home, CACHE_FIX_PROXY_PORT: '9900' }, 'linux');
  assert.equal(await main(['install-service'], again), 1);
  assert.match(again.err.join(''), /^\[install-service\] already-installed: .*cache-fix-proxy\.service\n  hint: rerun with --force/);
  const unitPath = join(home, '.config', 'systemd', 'user', 'cache-fix-proxy.service');
  assert.match(readFileSync(unitPath, 'utf8'), /CACHE_FIX_PROXY_PORT=9801/);
  const forced = fakeIo({ HOME: home, CACHE_FIX_PROXY_PORT: '9900' }, 'linux');
  assert.equal(await main(['install-service', '--force'], forced), 0);
  assert.match(readFileSync(unitPath, 'utf8'), /CACHE_FIX_PROXY_PORT=9900/);
  assert.match(forced.out.join(''), /systemctl --user restart cache-fix-proxy/);
});

test('a bad port and an unsupported platform are refused with one line', async (t) => {
  const home = tempDir(t);
  const badPort = fakeIo({ HOME: home, CACHE_FIX_PROXY_PORT: '0' }, 'linux');
  assert.equal(await main(['install-service'], badPort), 2);
  assert.match(badPort.err.join(''), /CACHE_FIX_PROXY_PORT must be a whole number from 1 to 65535/);
  const windows = fakeIo({ HOME: home }, 'win32');
  assert.equal(await main(['install-service'], windows), 1);
  assert.match(windows.err.join(''), /^\[install-service\] Unsupported platform: win32/);
  assert.equal(existsSync(join(home, '.config')), false);
});

test('macOS: a LaunchAgents plist that parses, restarts on any exit, and names the launchctl steps', async (t) => {
  const home = tempDir(t);
  const io = fakeIo({ HOME: home, ...CAPTURED, CACHE_FIX_PROXY_UPSTREAM: 'https://gw.example.com/a&b<c>' }, 'darwin');
  assert.equal(await main(['install-service'], io), 0);
  const plistPath = join(home, 'Library', 'LaunchAgents', 'com.cnighswonger.cache-fix-proxy.plist');
  const plist = readFileSync(plistPath, 'utf8');
  assert.match(plist, /<key>KeepAlive<\/key>\n\t<true\/>/);
  assert.match(plist, /a&amp;b&lt;c&gt;/);
  const output = io.out.join('');
  for (const step of ['launchctl bootstrap gui/501 ', 'launchctl enable gui/501/com.cnighswonger.cache-fix-proxy', 'launchctl kickstart -k gui/501/com.cnighswonger.cache-fix-proxy']) {
    assert.ok(output.includes(step), step);
  }
  const python = spawnSync('python3', ['-c', 'import plistlib,sys,json; print(json.dumps(plistlib.load(open(sys.argv[1],"rb"))))', plistPath], { encoding: 'utf8', timeout: 20_000 });
  if (python.error) {
    t.diagnostic('python3 not available: plist parsed by structure checks only');
    return;
  }
  assert.equal(python.status, 0, python.stderr);
  const parsed = JSON.parse(python.stdout);
  assert.equal(parsed.Label, 'com.cnighswonger.cache-fix-proxy');
  assert.deepEqual(parsed.ProgramArguments.slice(1), ['/opt/node prefix/lib/node_modules/cache-fix-proxy/dist/cache-fix-proxy.js', 'server']);
  assert.equal(parsed.KeepAlive, true);
  assert.equal(parsed.RunAtLoad, true);
  assert.equal(parsed.EnvironmentVariables.CACHE_FIX_PROXY_PORT, '9811');
  assert.equal(parsed.EnvironmentVariables.CACHE_FIX_PROXY_UPSTREAM, 'https://gw.example.com/a&b<c>');
  assert.equal(parsed.EnvironmentVariables.CACHE_FIX_DEBUG, '1');
  assert.equal(parsed.StandardErrorPath, join(home, 'Library', 'Logs', 'cache-fix-proxy.err'));
});

test('uninstall-service stops, disables and removes; when nothing is installed it says so and exits 1', async (t) => {
  const home = tempDir(t);
  await main(['install-service'], fakeIo({ HOME: home }, 'linux'));
  const io = fakeIo({ HOME: home }, 'linux');
  assert.equal(await main(['uninstall-service'], io), 0);
  assert.deepEqual(io.commands.map((c) => c.slice(1).join(' ')), [
    '--user stop cache-fix-proxy-healthcheck.timer',
    '--user disable cache-fix-proxy-healthcheck.timer',
    '--user stop cache-fix-proxy.service',
    '--user disable cache-fix-proxy.service',
    '--user daemon-reload',
  ]);
  assert.deepEqual(existsSync(join(home, '.config', 'systemd', 'user', 'cache-fix-proxy-healthcheck.timer')), false);
  const again = fakeIo({ HOME: home }, 'linux');
  assert.equal(await main(['uninstall-service'], again), 1);
  assert.match(again.err.join(''), /^\[uninstall-service\] not-installed: /);

  const mac = tempDir(t);
  mkdirSync(join(mac, 'Library', 'LaunchAgents'), { recursive: true });
  writeFileSync(join(mac, 'Library', 'LaunchAgents', 'com.cnighswonger.cache-fix-proxy.plist'), '<plist/>');
  const macIo = fakeIo({ HOME: mac }, 'darwin');
  assert.equal(await main(['uninstall-service'], macIo), 0);
  assert.deepEqual(macIo.commands[0].slice(0, 2), ['launchctl', 'bootout']);
});

test('healthcheck restarts a proxy that answers 503, not only one that is down', async (t) => {
  let status = 503;
  const fake = http.createServer((_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(status === 200 ? '{"status":"ok"}' : '{"status":"degraded"}');
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => fake.close(() => resolve())));
  const port = String((fake.address() as AddressInfo).port);
  const degraded = fakeIo({ CACHE_FIX_PROXY_PORT: port }, 'linux');
  assert.equal(await main(['healthcheck', '--restart-unit', 'cache-fix-proxy.service'], degraded), 0);
  assert.deepEqual(degraded.commands, [['systemctl', '--user', 'restart', 'cache-fix-proxy.service']]);
  assert.match(degraded.err.join(''), /not healthy \(HTTP 503\)/);

  status = 200;
  const healthy = fakeIo({ CACHE_FIX_PROXY_PORT: port }, 'linux');
  assert.equal(await main(['healthcheck', '--restart-unit', 'cache-fix-proxy.service'], healthy), 0);
  assert.deepEqual(healthy.commands, []);

  const failingRestart = fakeIo({ CACHE_FIX_PROXY_PORT: '1' }, 'linux', 1);
  assert.equal(await main(['healthcheck', '--restart-unit', 'cache-fix-proxy.service'], failingRestart), 1);
  assert.match(failingRestart.err.join(''), /restart cache-fix-proxy.service failed: Failed to connect to bus/);
});
