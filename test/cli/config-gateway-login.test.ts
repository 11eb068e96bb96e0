// gwctl config client --type claude --gateway-login: the managed-settings file for Claude Code's
// Cloud gateway sign-in, pointed at the configured gateway's root.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { gwctl, makeSandbox } from './gwctl-harness.ts';

const sandbox = makeSandbox({ GWCTL_BASE_URL: 'http://127.0.0.1:8080/v1' });
after(() => sandbox.cleanup());

test('prints the managed settings on stdout and where they go on stderr', async () => {
  const run = await gwctl(['config', 'client', '--type', 'claude', '--gateway-login'], sandbox.env);
  assert.equal(run.code, 0, run.err);
  assert.deepEqual(JSON.parse(run.out), { forceLoginMethod: 'gateway', forceLoginGatewayUrl: 'http://127.0.0.1:8080', parentSettingsBehavior: 'merge' });
  assert.match(run.err, /\/etc\/claude-code\/managed-settings\.json/);
  const json = await gwctl(['config', 'client', '--type', 'claude', '--gateway-login', '--json'], sandbox.env);
  assert.equal(JSON.parse(json.out).managedSettings.forceLoginGatewayUrl, 'http://127.0.0.1:8080');
  const wrong = await gwctl(['config', 'client', '--type', 'codex', '--gateway-login'], sandbox.env);
  assert.equal(wrong.code, 2);
});
