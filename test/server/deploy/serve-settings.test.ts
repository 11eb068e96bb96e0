// One source for the settings of `gwctl serve`: server/deploy/gwctl.env is exactly what the table
// renders (regenerate with `node --import tsx scripts/write-gwctl-env.ts`), every flag of the table is
// a serve option naming its variable, every variable serve --help names is in the table, the
// environment-only settings are listed in the help, and the defaults shown are the code's.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ENV_ONLY_SETTINGS, renderEnvFile, SERVE_SETTINGS } from '../../../server/deploy/serve-settings.ts';
import { DEFAULT_POOL_SIZE, DEFAULT_STATEMENT_TIMEOUT_MS } from '../../../server/store/open-database.ts';
import { defaultServeOptions } from '../../../server/serve-options.ts';
import { gwctl, makeSandbox } from '../../cli/gwctl-harness.ts';

const all = SERVE_SETTINGS.flatMap((s) => s.settings);

async function serveHelp(): Promise<string> {
  const sandbox = makeSandbox();
  const lines: string[] = [];
  const original = console.log;
  console.log = (...parts: unknown[]) => void lines.push(parts.join(' '));
  try {
    assert.equal((await gwctl(['serve', '--help'], sandbox.env)).code, 0);
  } finally {
    console.log = original;
    sandbox.cleanup();
  }
  return lines.join('\n');
}

test('server/deploy/gwctl.env is generated from the settings table', () => {
  const file = readFileSync(new URL('../../../server/deploy/gwctl.env', import.meta.url), 'utf8');
  assert.equal(file, renderEnvFile(), 'regenerate it: node --import tsx scripts/write-gwctl-env.ts');
  for (const setting of all) assert.match(file, new RegExp(`^#?${setting.env}=`, 'm'), setting.env);
});

test('the table and serve --help agree: every flag names its variable, every variable is in the table, env-only ones listed', async () => {
  const help = await serveHelp();
  const flat = help.replace(/\s+/g, ' ');
  for (const setting of all.filter((s) => s.flag)) {
    assert.match(help, new RegExp(`--${setting.flag}\\b`), `--${setting.flag}`);
    assert.match(flat, new RegExp(`\\[env ${setting.env}[;\\]]`), `--${setting.flag} says [env ${setting.env}]`);
  }
  const named = [...flat.matchAll(/\[env (GWCTL_[A-Z_]+)/g)].map((m) => m[1]);
  assert.deepEqual(named.filter((env) => !all.some((s) => s.env === env)), [], 'variables in the help but not in the table');
  assert.deepEqual(ENV_ONLY_SETTINGS.map((s) => s.env).sort(), ['GWCTL_ADMIN_PASSWORD', 'GWCTL_METRICS_TOKEN', 'GWCTL_OIDC_CLIENT_SECRET']);
  for (const setting of ENV_ONLY_SETTINGS) assert.match(help, new RegExp(`^\\s+${setting.env}\\s{2,}\\S`, 'm'), setting.env);
});

test('the defaults the file shows are the code\'s', () => {
  const value = (env: string) => all.find((s) => s.env === env)!.value;
  const defaults = defaultServeOptions({ HOME: '/nonexistent' });
  assert.equal(value('GWCTL_HOST'), defaults.host);
  assert.equal(value('GWCTL_PORT'), String(defaults.port));
  assert.equal(value('GWCTL_IMAGE_PORT'), String(defaults.imagePort));
  assert.equal(value('GWCTL_DRAIN_MS'), String(defaults.drainMs));
  assert.equal(value('GWCTL_LOG_LEVEL'), defaults.logLevel);
  assert.equal(value('GWCTL_DB_POOL_SIZE'), String(DEFAULT_POOL_SIZE));
  assert.equal(value('GWCTL_DB_STATEMENT_TIMEOUT_MS'), String(DEFAULT_STATEMENT_TIMEOUT_MS));
  assert.equal(value('GWCTL_BODY_LIMIT'), String(16 * 1024 * 1024));
});
