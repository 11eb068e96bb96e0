// Pure parts of the proxy engine: the version pin and package specs, tarball manifests, rule-5
// session detection, the upstream table, the port census from /proc, supervisor command lists and
// the service definition (captured values, fingerprint, backup).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { detectClientSession } from '../../../core/proxy/client-session.ts';
import { expectedUpstream } from '../../../core/proxy/expected-upstream.ts';
import { InstallTargetError, resolveInstallTarget } from '../../../core/proxy/install-target.ts';
import { PackageSpecError, parsePackageSpec } from '../../../core/proxy/package-spec.ts';
import { portProcesses } from '../../../core/proxy/port-processes.ts';
import { RecordingRunner } from '../../../core/proxy/recording-runner.ts';
import { backupDefinition, definitionChanged, readDefinition, rememberLoaded } from '../../../core/proxy/service-definition.ts';
import { display, Supervisor } from '../../../core/proxy/supervisor.ts';
import { makeTarball } from '../../fixtures/gwctl-proxy/proxy-sandbox.ts';

const root = mkdtempSync(join(tmpdir(), 'gwctl-proxy-units-'));
after(() => rmSync(root, { recursive: true, force: true }));

test('package specs: a name gets @4.2.1; any other version, tag or range is refused; paths must be .tgz', () => {
  assert.deepEqual(parsePackageSpec('cache-fix-proxy'), { kind: 'registry', name: 'cache-fix-proxy', requested: null });
  assert.deepEqual(parsePackageSpec('cache-fix-proxy@4.2.1'), { kind: 'registry', name: 'cache-fix-proxy', requested: '4.2.1' });
  assert.deepEqual(parsePackageSpec('@scope/proxy@4.2.1'), { kind: 'registry', name: '@scope/proxy', requested: '4.2.1' });
  assert.deepEqual(parsePackageSpec('./dist/cache-fix-proxy-4.2.1.tgz'), { kind: 'tarball', path: './dist/cache-fix-proxy-4.2.1.tgz' });
  for (const bad of ['cache-fix-proxy@4.3.0', 'cache-fix-proxy@latest', 'cache-fix-proxy@^4.2.1', '@scope/proxy@4.2.0']) {
    assert.throws(() => parsePackageSpec(bad), (e: unknown) => e instanceof PackageSpecError && /refused.*4\.2\.1 only/.test(e.message), bad);
  }
  assert.throws(() => parsePackageSpec('/tmp/some-dir'), /neither a registry name nor a packed tarball/);
});

test('a tarball is read before installing: 4.2.1 accepted, another version refused, a missing file named', () => {
  const good = makeTarball(root, { name: 'cache-fix-proxy', version: '4.2.1', bin: { 'cache-fix-proxy': 'bin/cli.js' } });
  const target = resolveInstallTarget(good, 'test', {}, root);
  assert.equal(target.argument, good);
  assert.equal(target.name, 'cache-fix-proxy');
  const other = makeTarball(root, { name: 'cache-fix-proxy', version: '4.3.0', bin: { 'cache-fix-proxy': 'bin/cli.js' } });
  assert.throws(() => resolveInstallTarget(other, 'test', {}, root), (e: unknown) => e instanceof InstallTargetError && e.code === 'VERSION_REFUSED' && /cache-fix-proxy@4\.3\.0, which is refused/.test(e.message));
  assert.throws(() => resolveInstallTarget(join(root, 'nope-4.2.1.tgz'), 'test', {}, root), (e: unknown) => e instanceof InstallTargetError && e.code === 'PACKAGE_NOT_FOUND');
  assert.equal(resolveInstallTarget('cache-fix-proxy', 'test', {}, root).argument, 'cache-fix-proxy@4.2.1');
});

test('rule 5: a base-address variable on loopback with the proxy port marks a client session', () => {
  const proxy = 'http://127.0.0.1:9801';
  assert.equal(detectClientSession({ MSGAPI_BASE_URL: 'http://127.0.0.1:9801' }, 'MSGAPI_BASE_URL', proxy).inSession, true);
  assert.equal(detectClientSession({ MSGAPI_BASE_URL: 'http://localhost:9801/' }, 'MSGAPI_BASE_URL', proxy).inSession, true);
  const other = detectClientSession({ SOME_CLIENT_BASE_URL: 'http://127.0.0.1:9801' }, 'MSGAPI_BASE_URL', proxy);
  assert.equal(other.variable, 'SOME_CLIENT_BASE_URL');
  assert.equal(detectClientSession({ MSGAPI_BASE_URL: 'https://gateway.example.com' }, 'MSGAPI_BASE_URL', proxy).inSession, false);
  assert.equal(detectClientSession({ MSGAPI_BASE_URL: 'http://127.0.0.1:9802' }, 'MSGAPI_BASE_URL', proxy).inSession, false);
  assert.equal(detectClientSession({ GWCTL_BASE_URL: 'http://127.0.0.1:9801' }, 'MSGAPI_BASE_URL', proxy).inSession, false);
});

test('upstream table: this service → {base_url}; vendor key and subscription → the default', () => {
  assert.equal(expectedUpstream('service', 'https://gw.example.com').value, 'https://gw.example.com');
  assert.equal(expectedUpstream('vendor', 'https://gw.example.com').value, undefined);
  assert.equal(expectedUpstream('oauth', undefined).value, undefined);
  assert.match(expectedUpstream('oauth', undefined).why, /CACHE_FIX_OAUTH_REFRESH stays off/);
});

test('port census from /proc: listeners by socket inode and proxy servers meant for the port', async () => {
  const proc = join(root, 'proc');
  mkdirSync(join(proc, 'net'), { recursive: true });
  const header = '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n';
  writeFileSync(join(proc, 'net', 'tcp'), `${header}   0: 0100007F:2649 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4242 1 0000000000000000 100 0 0 10 0\n   1: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 5555 1 0000000000000000 100 0 0 10 0\n`);
  const pid = (n: number, cmd: string[], socket: string | null, environ = '') => {
    mkdirSync(join(proc, String(n), 'fd'), { recursive: true });
    writeFileSync(join(proc, String(n), 'cmdline'), cmd.join('\0') + '\0');
    writeFileSync(join(proc, String(n), 'environ'), environ);
    if (socket) symlinkSync(socket, join(proc, String(n), 'fd', '3'));
  };
  pid(100, ['/usr/bin/node', '/usr/lib/node_modules/cache-fix-proxy/dist/cache-fix-proxy.js', 'server'], 'socket:[4242]');
  pid(101, ['/usr/bin/node', '/home/u/bin/cache-fix-proxy', 'server'], null, 'HOME=/home/u\0CACHE_FIX_PROXY_PORT=9801\0');
  pid(102, ['/usr/bin/node', 'other.js'], 'socket:[5555]');
  pid(103, ['/usr/bin/node', '/x/cache-fix-proxy', 'server'], null, 'CACHE_FIX_PROXY_PORT=9900\0');
  const report = await portProcesses(9801, { platform: 'linux', procRoot: proc, run: new RecordingRunner().run, env: {} });
  assert.deepEqual(report.processes.map((p) => [p.pid, p.listening, p.proxyServer]), [[100, true, true], [101, false, true]]);
  assert.equal(report.contested, true);
  assert.match(report.observed, /2 processes on port 9801 \(1 listening\)/);
  const quiet = await portProcesses(8080, { platform: 'linux', procRoot: proc, run: new RecordingRunner().run, env: {} });
  assert.equal(quiet.contested, false);
  assert.equal(quiet.processes.length, 1);
});

test('supervisor commands: systemd units and the launchd sequence; a changed definition is reloaded', () => {
  const env = { HOME: '/h', XDG_CONFIG_HOME: '/h/.config' };
  const systemd = new Supervisor('systemd', env, 501);
  assert.deepEqual(display(systemd.enable()), ['systemctl --user daemon-reload', 'systemctl --user enable --now cache-fix-proxy', 'systemctl --user enable --now cache-fix-proxy-healthcheck.timer']);
  assert.deepEqual(display(systemd.restart(false)), ['systemctl --user restart cache-fix-proxy']);
  assert.deepEqual(display(systemd.restart(true)), ['systemctl --user daemon-reload', 'systemctl --user restart cache-fix-proxy']);
  const launchd = new Supervisor('launchd', env, 501);
  const plist = '/h/Library/LaunchAgents/com.cnighswonger.cache-fix-proxy.plist';
  assert.deepEqual(display(launchd.enable()), [`launchctl bootstrap gui/501 ${plist}`, 'launchctl enable gui/501/com.cnighswonger.cache-fix-proxy', 'launchctl kickstart -k gui/501/com.cnighswonger.cache-fix-proxy']);
  assert.deepEqual(display(launchd.restart(false)), ['launchctl kickstart -k gui/501/com.cnighswonger.cache-fix-proxy']);
  assert.deepEqual(display(launchd.restart(true)), [`launchctl bootout gui/501 ${plist}`, `launchctl bootstrap gui/501 ${plist}`, 'launchctl enable gui/501/com.cnighswonger.cache-fix-proxy']);
});

test('service definition: captured upstream, port, debug and body-altering options; fingerprint and backup', () => {
  const home = join(root, 'home-def');
  const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_STATE_HOME: join(home, '.local', 'state') };
  assert.equal(readDefinition('systemd', env).exists, false);
  const dir = join(home, '.config', 'systemd', 'user');
  mkdirSync(dir, { recursive: true });
  const unit = join(dir, 'cache-fix-proxy.service');
  writeFileSync(unit, '[Service]\nExecStart=/usr/bin/node "/opt/my proxy/dist/cache-fix-proxy.js" server\nEnvironment=CACHE_FIX_PROXY_PORT=9811\nEnvironment=CACHE_FIX_PROXY_UPSTREAM=https://gw.example.com\nEnvironment=CACHE_FIX_DEBUG=1\nEnvironment=CACHE_FIX_THINKING_SANITIZE=v2\n');
  const def = readDefinition('systemd', env);
  assert.equal(def.upstream, 'https://gw.example.com');
  assert.equal(def.port, 9811);
  assert.equal(def.debug, true);
  assert.deepEqual(def.bodyAltering, ['thinking-block sanitize v2']);
  assert.deepEqual(def.program, ['/usr/bin/node', '/opt/my proxy/dist/cache-fix-proxy.js', 'server']);
  assert.equal(definitionChanged(env, def), true, 'unknown counts as changed');
  rememberLoaded(env, def, new Date());
  assert.equal(definitionChanged(env, readDefinition('systemd', env)), false);
  writeFileSync(unit, readFileSync(unit, 'utf8') + '# edited\n');
  assert.equal(definitionChanged(env, readDefinition('systemd', env)), true);
  const backup = backupDefinition(readDefinition('systemd', env), new Date('2026-03-01T10:00:00Z'))!;
  assert.match(backup, /cache-fix-proxy\.service\.gwctl-backup-20260301T100000Z$/);
  assert.equal(readFileSync(backup, 'utf8'), readFileSync(unit, 'utf8'));
  assert.ok(existsSync(unit));
});
