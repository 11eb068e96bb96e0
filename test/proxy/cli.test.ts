import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { runSourceCli, SOURCE_BIN, startServerProcess } from './helpers/run-cli.ts';
import { tempDir } from './helpers/temp-dir.ts';

test('--version prints 4.2.1; --help lists the commands and says what the debug log records', async (t) => {
  const home = tempDir(t);
  const version = await runSourceCli(['--version'], { HOME: home });
  assert.equal(version.code, 0);
  assert.equal(version.stdout, '4.2.1\n');
  const help = await runSourceCli(['--help'], { HOME: home });
  assert.equal(help.code, 0);
  for (const expected of ['server', 'install-service [--force]', 'uninstall-service', 'CACHE_FIX_PROXY_UPSTREAM', '[REDACTED]', 'never records request']) {
    assert.ok(help.stdout.includes(expected), expected);
  }
});

test('configuration mistakes give one clear line and exit 2', async (t) => {
  const home = tempDir(t);
  const cases: Array<[Record<string, string>, RegExp]> = [
    [{ CACHE_FIX_PROXY_BIND: '0.0.0.0' }, /refusing to listen on 0\.0\.0\.0: .*loopback/],
    [{ CACHE_FIX_PROXY_BIND: '192.168.1.5' }, /refusing to listen on 192\.168\.1\.5/],
    [{ CACHE_FIX_PROXY_PORT: '70000' }, /CACHE_FIX_PROXY_PORT must be a whole number from 0 to 65535, got "70000"/],
    [{ CACHE_FIX_PROXY_PORT: 'abc' }, /got "abc"/],
    [{ CACHE_FIX_PROXY_UPSTREAM: 'ftp://example.com' }, /must be http or https/],
  ];
  for (const [env, message] of cases) {
    const result = await runSourceCli(['server'], { HOME: home, ...env });
    assert.equal(result.code, 2, JSON.stringify(env));
    assert.match(result.stderr.split('\n')[0], message);
    assert.equal(result.stdout, '');
  }
  const unknown = await runSourceCli(['frobnicate'], { HOME: home });
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown command "frobnicate"/);
  const badOption = await runSourceCli(['install-service', '--frce'], { HOME: home });
  assert.equal(badOption.code, 2);
  assert.match(badOption.stderr, /unknown option "--frce" for install-service/);
});

test('--help after a command prints help instead of running it', async (t) => {
  const home = tempDir(t);
  for (const command of ['server', 'install-service', 'uninstall-service']) {
    const result = await runSourceCli([command, '--help'], { HOME: home });
    assert.equal(result.code, 0, command);
    assert.match(result.stdout, /^cache-fix-proxy 4\.2\.1/);
  }
});

test('a port already in use exits 1 with a one-line explanation', async (t) => {
  const home = tempDir(t);
  const blocker = net.createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => blocker.close(() => resolve())));
  const port = (blocker.address() as AddressInfo).port;
  const result = await runSourceCli(['server'], { HOME: home, CACHE_FIX_PROXY_PORT: String(port), CACHE_FIX_PROXY_UPSTREAM: 'http://127.0.0.1:9' });
  assert.equal(result.code, 1);
  assert.match(result.stderr, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use`));
});

test('server: readiness line, /health, and a clean exit 0 on SIGTERM', async (t) => {
  const home = tempDir(t);
  const server = await startServerProcess(process.execPath, ['--import', 'tsx', SOURCE_BIN, 'server'], {
    PATH: process.env.PATH ?? '',
    HOME: home,
    CACHE_FIX_PROXY_PORT: '0',
    CACHE_FIX_PROXY_UPSTREAM: 'http://127.0.0.1:9',
  });
  t.after(() => server.stop());
  assert.match(server.stderr(), /hot-reload: off/);
  const res = await fetch(`http://127.0.0.1:${server.port}/health`);
  assert.equal(await res.text(), '{"status":"ok"}');
  assert.equal(await server.stop(), 0);
});
