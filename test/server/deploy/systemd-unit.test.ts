// The gateway's systemd unit: what `gwctl serve --print-systemd-unit` prints, that systemd accepts
// it (when systemd-analyze is installed), and that the example EnvironmentFile names only settings
// `gwctl serve` reads.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { renderGatewayUnit, UNIT_DEFAULTS } from '../../../server/deploy/systemd-unit.ts';
import { GWCTL_BIN, gwctl, makeSandbox } from '../../cli/gwctl-harness.ts';

const ENV_EXAMPLE = fileURLToPath(new URL('../../../server/deploy/gwctl.env', import.meta.url));
const sandbox = makeSandbox();
const scratch = mkdtempSync(join(tmpdir(), 'gwctl-unit-'));
after(() => {
  sandbox.cleanup();
  rmSync(scratch, { recursive: true, force: true });
});

function haveCommand(name: string, args: string[]): boolean {
  return spawnSync(name, args, { stdio: 'ignore' }).status === 0;
}

function lines(unit: string): string[] {
  return unit.split('\n');
}

test('the unit runs gwctl serve as its own user with settings from the EnvironmentFile and a state directory', () => {
  const unit = renderGatewayUnit({ nodePath: '/opt/node 20/bin/node', gwctlPath: '/srv/100%/gwctl/bin/gwctl.js', drainMs: 30_000, ...UNIT_DEFAULTS });
  for (const line of [
    'User=gwctl',
    'EnvironmentFile=/etc/gwctl/gwctl.env',
    'StateDirectory=gwctl',
    'Environment=GWCTL_DATA_DIR=/var/lib/gwctl',
    'KillSignal=SIGTERM',
    'Restart=on-failure',
    'WantedBy=multi-user.target',
  ]) {
    assert.ok(lines(unit).includes(line), `${line}\n${unit}`);
  }
  // Words with spaces stay whole; % is doubled so systemd does not read a specifier.
  assert.ok(lines(unit).includes('ExecStart="/opt/node 20/bin/node" "/srv/100%%/gwctl/bin/gwctl.js" "serve"'), unit);
  // The stop timeout leaves the drain time to finish.
  const stop = Number(/^TimeoutStopSec=(\d+)$/m.exec(unit)?.[1]);
  assert.ok(stop > 30, unit);
});

test('gwctl serve --print-systemd-unit prints the unit for this node and exits 0 without serving', async () => {
  const run = await gwctl(['serve', '--print-systemd-unit', '--drain-ms', '5000'], sandbox.env);
  assert.equal(run.code, 0, run.err);
  assert.match(run.out, /^\[Service\]$/m);
  assert.ok(run.out.includes(`ExecStart="${process.execPath}" "`), run.out);
  assert.match(run.out, /" "serve"$/m);
  assert.doesNotMatch(run.out, /gateway is running/);
});

test('systemd-analyze verify accepts the printed unit', { skip: haveCommand('systemd-analyze', ['--version']) ? false : 'systemd-analyze is not installed here' }, async () => {
  const run = await gwctl(['serve', '--print-systemd-unit'], sandbox.env);
  assert.equal(run.code, 0, run.err);
  const file = join(scratch, 'gwctl.service');
  writeFileSync(file, run.out);
  const result = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(result.status, 0, result.stderr);
  assert.doesNotMatch(result.stderr, /Unknown key|Invalid|ignoring|Failed/i, result.stderr);
});

test('the example EnvironmentFile names only settings that gwctl serve reads', () => {
  const help = spawnSync(process.execPath, [GWCTL_BIN, 'serve', '--help'], { env: sandbox.env, cwd: sandbox.project, encoding: 'utf8', timeout: 120_000 });
  assert.equal(help.status, 0, help.stderr);
  // Flags name their variable ("[env GWCTL_PORT]"); the environment-only ones are listed after the options.
  const known = new Set([...help.stdout.matchAll(/env\s+(GWCTL_[A-Z_]+)/g), ...help.stdout.matchAll(/^\s+(GWCTL_[A-Z_]+)\s{2,}/gm)].map((m) => m[1]));
  assert.ok(known.has('GWCTL_ADMIN_PASSWORD') && known.has('GWCTL_METRICS_TOKEN'), 'serve --help lists the environment-only settings');
  assert.ok(known.has('GWCTL_PORT') && known.has('GWCTL_DATA_DIR'), `control: ${[...known].join(', ')}`);
  const named = [...readFileSync(ENV_EXAMPLE, 'utf8').matchAll(/^#?(GWCTL_[A-Z_]+)=/gm)].map((m) => m[1]);
  assert.ok(named.length >= 10, named.join(', '));
  assert.deepEqual(named.filter((name) => !known.has(name)), []);
  // Set lines are plain VARIABLE=value (systemd reads no shell syntax there).
  for (const line of readFileSync(ENV_EXAMPLE, 'utf8').split('\n').filter((l) => l && !l.startsWith('#'))) assert.match(line, /^GWCTL_[A-Z_]+=[^"'$`\s]*$/);
});
