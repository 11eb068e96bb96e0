// `gwctl serve` with a cloud provider whose credential is missing or unusable stops at start-up
// (exit 2) with a message naming the provider and the variable, and never prints a credential it
// did find.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/gwctl.js', import.meta.url));
const FOUND_SECRET = 'found-secret-value-must-not-print-0001';

describe('gwctl serve refuses to start without a cloud provider\'s credential', { timeout: 120_000 }, () => {
  const root = mkdtempSync(join(tmpdir(), 'gwctl-cloud-start-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  function serve(providers: unknown, env: Record<string, string>): { code: number | null; output: string } {
    const file = join(root, `providers-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, JSON.stringify({ providers }));
    const clean: NodeJS.ProcessEnv = {};
    for (const [name, value] of Object.entries(process.env)) if (!/^(GWCTL_|AWS_|GOOGLE_|AZURE_|NODE_OPTIONS|NODE_TEST)/.test(name)) clean[name] = value;
    const child = spawnSync(process.execPath, [BIN, 'serve', '--host', '127.0.0.1', '--port', '0', '--image-port', '0', '--data-dir', join(root, 'data'), '--config', file], {
      env: { ...clean, HOME: root, ...env },
      encoding: 'utf8',
      timeout: 60_000,
    });
    return { code: child.status, output: child.stdout + child.stderr };
  }

  test('a missing AWS secret variable', () => {
    const result = serve([{ name: 'aws', type: 'bedrock', region: 'us-east-1', accessKeyIdEnv: 'GW_AWS_KEY', secretAccessKeyEnv: 'GW_AWS_SECRET', models: ['anthropic.claude-x'] }], { GW_AWS_KEY: FOUND_SECRET });
    assert.equal(result.code, 2, result.output);
    assert.match(result.output, /Provider "aws" takes its secret access key from \$GW_AWS_SECRET, which is not set/);
    assert.ok(!result.output.includes(FOUND_SECRET));
  });

  test('a service-account file that is not one', () => {
    const file = join(root, 'not-an-account.json');
    writeFileSync(file, JSON.stringify({ type: 'authorized_user', refresh_token: FOUND_SECRET }));
    const result = serve([{ name: 'gcp', type: 'vertex', project: 'p', region: 'global', credentialsFileEnv: 'GW_SA', models: ['gemini-2.5-flash'] }], { GW_SA: file });
    assert.equal(result.code, 2, result.output);
    assert.match(result.output, /Provider "gcp": the service-account file .*not-an-account\.json \(from \$GW_SA\) holds a credential of type "authorized_user", not a service account/);
    assert.ok(!result.output.includes(FOUND_SECRET));
  });
});
