// gwctl proxy … in-process on a sandboxed machine (temp HOME/XDG, temp npm prefix, fake systemctl
// and launchctl first on PATH): refusals and their exit codes, dry runs, rule 5, the relay check,
// cache observations and the help texts. Real installs and services are in test/e2e/gwctl-proxy*.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { FakeProxy } from '../helpers/fake-proxy.ts';
import { FakeUpstream, jsonReply } from '../helpers/fake-upstream.ts';
import { fakeInstalledPackage, proxySandbox, type ProxySandbox } from '../fixtures/gwctl-proxy/proxy-sandbox.ts';
import { gwctl, gwctlJson } from './gwctl-harness.ts';

const sandboxes: ProxySandbox[] = [];
let proxy: FakeProxy;
let chatOnly: FakeUpstream;

before(async () => {
  [proxy, chatOnly] = await Promise.all([FakeProxy.start('ok'), FakeUpstream.start()]);
  chatOnly.handle(() => jsonReply(404, { error: { message: 'Not Found' } }));
});
after(async () => {
  await Promise.all([proxy.close(), chatOnly.close()]);
  for (const s of sandboxes) s.cleanup();
});

function machine(extra: NodeJS.ProcessEnv = {}): ProxySandbox {
  const s = proxySandbox({ GWCTL_BASE_URL: 'https://gw.example.com', GWCTL_PROXY_URL: proxy.url, GWCTL_PROXY_PACKAGE: 'cache-fix-proxy', ...extra });
  sandboxes.push(s);
  return s;
}

describe('gwctl proxy', { concurrency: 4 }, () => {
  test('status --json when nothing is installed: exit 1, the fake supervisor was asked', async () => {
    const s = machine();
    const run = await gwctlJson(['proxy', 'status'], s.env);
    assert.equal(run.code, 1, run.err);
    assert.equal(run.json.installation.installed, false);
    assert.equal(run.json.pinnedVersion, '4.2.1');
    assert.deepEqual([run.json.checks[0].id, run.json.checks[0].status, run.json.checks[0].cause], ['proxy.installed', 'fail', 'PROXY_NOT_INSTALLED']);
    for (const check of run.json.checks) assert.deepEqual(Object.keys(check), ['id', 'status', 'cause', 'observed', 'remedy', 'commands'], 'the shape of verify and diagnose');
    assert.equal('findings' in run.json, false);
    assert.deepEqual(s.supervisorCalls().slice(0, 2), ['systemctl --user is-enabled cache-fix-proxy', 'systemctl --user is-active cache-fix-proxy']);
    const text = await gwctl(['proxy', 'status'], s.env);
    assert.match(text.out, /installed   no\n/);
    assert.match(text.out, /FAIL  PROXY_NOT_INSTALLED\n[\s\S]*\$ gwctl proxy install/);
  });

  test('another version is refused with exit 2: argument, setting, and config set', async () => {
    const s = machine();
    const arg = await gwctl(['proxy', 'install', 'cache-fix-proxy@4.3.0'], s.env);
    assert.equal(arg.code, 2);
    assert.match(arg.err, /refused \[VERSION_REFUSED\][\s\S]*cache-fix-proxy@4\.3\.0 is refused: the proxy is documented for version 4\.2\.1 only/);
    const json = await gwctlJson(['proxy', 'upgrade', 'cache-fix-proxy@latest'], s.env);
    assert.equal(json.code, 2);
    assert.equal(json.json.cause, 'VERSION_REFUSED');
    const setting = await gwctl(['proxy', 'install'], { ...s.env, GWCTL_PROXY_PACKAGE: 'cache-fix-proxy@4.2.0' });
    assert.equal(setting.code, 2);
    assert.match(setting.err, /GWCTL_PROXY_PACKAGE \(environment\): cache-fix-proxy@4\.2\.0 is refused/);
    const set = await gwctl(['config', 'set', 'proxy.package', 'cache-fix-proxy@5.0.0'], s.env);
    assert.equal(set.code, 2);
    assert.deepEqual(readdirSync(join(s.prefix, 'bin')), [], 'nothing was installed');
  });

  test('install --dry-run prints the pinned npm command and runs nothing', async () => {
    const s = machine();
    const run = await gwctl(['proxy', 'install', '--dry-run'], s.env);
    assert.equal(run.code, 0, run.err);
    assert.match(run.out, /\$ npm install -g --no-audit --no-fund cache-fix-proxy@4\.2\.1   # install exactly 4\.2\.1$/m);
    assert.match(run.out, /OK: dry run: 2 steps would run; nothing was changed/);
  });

  test('service install --dry-run: upstream by auth path, the systemctl commands, no files', async () => {
    const s = machine();
    fakeInstalledPackage(s.prefix, '4.2.1');
    const run = await gwctl(['proxy', 'service', 'install', '--dry-run'], s.env);
    assert.equal(run.code, 0, run.err);
    assert.match(run.out, /environment  CACHE_FIX_PROXY_UPSTREAM=https:\/\/gw\.example\.com  CACHE_FIX_PROXY_PORT=\d+  CACHE_FIX_DEBUG unset/);
    assert.match(run.out, /\$ systemctl --user daemon-reload[^\n]*\n  \$ systemctl --user enable --now cache-fix-proxy\n  \$ systemctl --user enable --now cache-fix-proxy-healthcheck\.timer/);
    const vendor = await gwctl(['proxy', 'service', 'install', '--dry-run', '--auth', 'vendor'], s.env);
    assert.match(vendor.out, /\$ env -u CACHE_FIX_PROXY_UPSTREAM CACHE_FIX_PROXY_PORT=\d+ \S+cache-fix-proxy install-service/);
    assert.equal(existsSync(join(s.home, '.config', 'systemd', 'user')), false);
    assert.deepEqual(s.supervisorCalls(), []);
  });

  test('service install runs install-service and the supervisor sequence through the fake', async () => {
    const s = machine();
    fakeInstalledPackage(s.prefix, '4.2.1');
    const run = await gwctlJson(['proxy', 'service', 'install'], s.env);
    assert.equal(run.code, 0, run.err);
    assert.deepEqual(s.supervisorCalls(), ['systemctl --user daemon-reload', 'systemctl --user enable --now cache-fix-proxy', 'systemctl --user enable --now cache-fix-proxy-healthcheck.timer']);
    assert.equal(run.json.health.state, 'ok');
    assert.match(run.err, /\$ systemctl --user enable --now cache-fix-proxy/, 'progress went to stderr');
  });

  test('enable without a definition: exit 1 with the spec explanation; debug without confirmation: exit 2', async () => {
    const s = machine();
    const enable = await gwctl(['proxy', 'service', 'enable'], s.env);
    assert.equal(enable.code, 1);
    assert.match(enable.err, /refused \[SERVICE_NOT_INSTALLED\][\s\S]*Enabling without `install-service` fails: systemctl answers "Unit cache-fix-proxy\.service not found"/);
    fakeInstalledPackage(s.prefix, '4.2.1');
    const debug = await gwctl(['proxy', 'service', 'install', '--debug'], s.env);
    assert.equal(debug.code, 2);
    assert.match(debug.err, /DEBUG_NOT_CONFIRMED[\s\S]*--confirm-debug/);
    assert.deepEqual(s.supervisorCalls(), []);
  });

  test('rule 5: upgrade and restart refused when the environment shows a session through the proxy port', async () => {
    const s = machine({ MSGAPI_BASE_URL: proxy.url });
    fakeInstalledPackage(s.prefix, '4.2.1');
    mkdirSync(join(s.home, '.config', 'systemd', 'user'), { recursive: true });
    writeFileSync(join(s.home, '.config', 'systemd', 'user', 'cache-fix-proxy.service'), '[Service]\n');
    for (const args of [['proxy', 'upgrade'], ['proxy', 'service', 'restart'], ['proxy', 'service', 'uninstall']]) {
      const run = await gwctl(args, s.env);
      assert.equal(run.code, 1, args.join(' '));
      assert.match(run.err, /refused \[IN_CLIENT_SESSION\][\s\S]*MSGAPI_BASE_URL=http:\/\/127\.0\.0\.1:\d+ in this environment[\s\S]*external terminal/);
    }
    assert.deepEqual(s.supervisorCalls(), []);
  });

  test('upstream check: a chat-completions /v1 address is refused (exit 1)', async () => {
    const s = machine({ MSGAPI_AUTH_TOKEN: 'sk-cli-test-key-0000' });
    const run = await gwctlJson(['proxy', 'upstream', 'check', `${chatOnly.url}/v1`], s.env);
    assert.equal(run.code, 1);
    assert.equal(run.json.checks[0].cause, 'RELAY_CHAT_COMPLETIONS');
    const text = await gwctl(['proxy', 'upstream', 'check', `${chatOnly.url}/v1`], s.env);
    assert.match(text.out, /FAIL  relay\.address\s+RELAY_CHAT_COMPLETIONS[\s\S]*FAILED: do not use it as the proxy upstream/);
  });

  test('cache: per session figures as separate measures, with the spec 9 note', async () => {
    const s = machine();
    const dir = join(s.home, '.claude', 'quota-status', 'sessions');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 's-1.json'), JSON.stringify({ cache: { ttl_tier: '1h', cache_creation: 1200, cache_read: 48000, hit_rate: '97.5', timestamp: '2026-05-01T10:00:00.000Z' }, session_id: 's-1' }));
    writeFileSync(join(dir, 's-2.json'), JSON.stringify({ cache: { ttl_tier: 'unknown', cache_creation: 0, cache_read: 0, hit_rate: 'N/A', timestamp: '2026-05-01T09:00:00.000Z' }, session_id: 's-2' }));
    const run = await gwctl(['proxy', 'cache'], s.env);
    assert.equal(run.code, 0);
    assert.match(run.out, /session\s+hit rate\s+cache read\s+cache creation\s+TTL tier\s+observed\n/);
    assert.match(run.out, /s-1\s+97\.5 %\s+48000\s+1200\s+1h\s+2026-05-01T10:00:00\.000Z/);
    assert.match(run.out, /s-2\s+n\/a\s+0\s+0\s+unknown/);
    assert.match(run.out, /note: Cache hit rate, cache read and cache creation token counts, and the final bill .* must not be equated/);
    const json = await gwctlJson(['proxy', 'cache'], s.env);
    assert.deepEqual(json.json.sessions.map((x: { session: string; hitRate: string | null }) => [x.session, x.hitRate]), [['s-1', '97.5'], ['s-2', null]]);
  });
});

/** yargs prints help with console.log, outside the CLI's own output functions. */
async function help(command: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const lines: string[] = [];
  const original = console.log;
  console.log = (...parts: unknown[]) => void lines.push(parts.join(' '));
  try {
    const run = await gwctl([...command, '--help'], env);
    assert.equal(run.code, 0, command.join(' '));
    return lines.join('\n') + run.out;
  } finally {
    console.log = original;
  }
}

test('help: proxy subcommands and the top-level accept', async () => {
  const s = machine();
  const proxyHelp = await help(['proxy'], s.env);
  for (const name of ['status', 'install', 'upgrade', 'service', 'upstream', 'cache', 'accept']) assert.match(proxyHelp, new RegExp(`gwctl proxy ${name}`));
  assert.match(await help(['accept'], s.env), /Three-layer acceptance/);
  const install = await help(['proxy', 'service', 'install'], s.env);
  for (const flag of ['--force', '--debug', '--confirm-debug', '--dry-run', '--json', '--regress']) assert.ok(install.includes(flag), flag);
  assert.match(await help(['proxy', 'upstream', 'check'], s.env), /--key-env/);
});
