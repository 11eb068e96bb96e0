// Every dependency npm installs supports the Node versions package.json claims (so `npm ci` prints
// no EBADENGINE warning), checked on the lockfile at the edges of the claimed range.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import semver from 'semver';

const read = (file: string) => JSON.parse(readFileSync(fileURLToPath(new URL(`../../${file}`, import.meta.url)), 'utf8'));
const manifest = read('package.json') as { engines: { node: string } };
const lock = read('package-lock.json') as { packages: Record<string, { dev?: boolean; engines?: { node?: string } | string[] }> };

function nodeRange(entry: { engines?: { node?: string } | string[] }): string | undefined {
  return Array.isArray(entry.engines) ? undefined : entry.engines?.node;
}

test('the claimed range starts at 20.19 and includes the Node running the tests', () => {
  assert.equal(semver.minVersion(manifest.engines.node)?.version, '20.19.0');
  assert.ok(semver.satisfies(process.version, manifest.engines.node), `${process.version} is outside ${manifest.engines.node}`);
});

test('every installed package supports the lowest, the running and the edge Node versions we claim', () => {
  const versions = ['20.19.0', '20.99.0', '22.12.0', '22.99.0', '23.0.0', '26.99.0', process.version].filter((v) => semver.satisfies(v, manifest.engines.node));
  assert.ok(versions.length >= 6, `control: ${versions.join(', ')}`);
  const excluded: string[] = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    const range = nodeRange(entry);
    if (!path || !range) continue;
    // Dev tools only need to run here; what users install must support the whole claimed range.
    for (const version of entry.dev ? ['20.19.0', process.version] : versions) {
      if (!semver.satisfies(version, range)) excluded.push(`${path} (${range}) excludes ${version}`);
    }
  }
  assert.deepEqual(excluded, []);
});
