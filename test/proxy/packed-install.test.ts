import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeUpstream } from './helpers/fake-upstream.ts';
import { runCommand, startServerProcess } from './helpers/run-cli.ts';
import { tempDir } from './helpers/temp-dir.ts';

const PACK_SCRIPT = fileURLToPath(new URL('../../scripts/pack-proxy.mjs', import.meta.url));

test('the packed tarball installs alone with npm -g into a temp prefix and runs', async (t) => {
  const out = tempDir(t, 'cfp-pack-');
  const prefix = tempDir(t, 'cfp-prefix-');
  const home = tempDir(t, 'cfp-home-');
  const baseEnv = { PATH: process.env.PATH ?? '', HOME: home };

  const packed = await runCommand(process.execPath, [PACK_SCRIPT, out], baseEnv, 60_000);
  assert.equal(packed.code, 0, packed.stderr);
  const tarball = packed.stdout.trim();
  assert.equal(tarball, join(out, 'cache-fix-proxy-4.2.1.tgz'));

  const install = await runCommand('npm', ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', tarball], { ...baseEnv, npm_config_cache: join(home, '.npm') }, 60_000, prefix);
  assert.equal(install.code, 0, install.stderr);
  const pkgDir = join(prefix, 'lib', 'node_modules', 'cache-fix-proxy');
  const manifest = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  assert.equal(manifest.version, '4.2.1');
  assert.equal(manifest.dependencies, undefined);
  // Installed alone: nothing but our own files, no node_modules of its own.
  assert.deepEqual(readdirSync(pkgDir).sort(), ['README.md', 'bin', 'dist', 'extensions.json', 'package.json']);
  const bin = join(prefix, 'bin', 'cache-fix-proxy');

  const version = await runCommand(bin, ['--version'], baseEnv, 20_000, prefix);
  assert.equal(version.code, 0, version.stderr);
  assert.equal(version.stdout.trim(), '4.2.1');

  const upstream = await startFakeUpstream();
  t.after(() => upstream.close());
  const server = await startServerProcess(bin, ['server'], { ...baseEnv, CACHE_FIX_PROXY_PORT: '0', CACHE_FIX_PROXY_UPSTREAM: upstream.url }, 20_000, prefix);
  t.after(() => server.stop());
  const health = await fetch(`http://127.0.0.1:${server.port}/health`);
  assert.equal(health.status, 200);
  assert.equal(await health.text(), '{"status":"ok"}');
  const forwarded = await fetch(`http://127.0.0.1:${server.port}/v1/messages`, { method: 'POST', headers: { 'x-api-key': 'sk-installed' }, body: '{"model":"m","tools":[{"name":"b"},{"name":"a"}],"messages":[]}' });
  assert.equal(forwarded.status, 200);
  // The packaged extensions.json was found and the built-in chain ran.
  assert.equal(upstream.received[0].body.toString(), '{"model":"m","tools":[{"name":"a"},{"name":"b"}],"messages":[]}');
  assert.equal(upstream.received[0].headers['x-api-key'], 'sk-installed');
  assert.equal(await server.stop(), 0);

  const service = await runCommand(bin, ['install-service'], { ...baseEnv, CACHE_FIX_SERVICE_PLATFORM: 'linux', CACHE_FIX_PROXY_UPSTREAM: upstream.url }, 20_000, prefix);
  assert.equal(service.code, 0, service.stderr);
  const unit = readFileSync(join(home, '.config', 'systemd', 'user', 'cache-fix-proxy.service'), 'utf8');
  assert.ok(unit.includes(`${join(pkgDir, 'bin', 'cache-fix-proxy.js')} server`), unit);
  assert.ok(unit.includes(`WorkingDirectory=${pkgDir}`), unit);
});
