#!/usr/bin/env node
// Builds the standalone cache-fix-proxy package: one ESM file for Node >= 18 with no runtime
// dependencies, then `npm pack`s it. Usage: node scripts/pack-proxy.mjs [output-dir]
// Prints the absolute path of the tarball on stdout (progress goes to stderr).
// The package is assembled in a private temporary folder, so concurrent runs (tests) never race.
import { build } from 'esbuild';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const proxyDir = join(root, 'proxy');
const stageDir = mkdtempSync(join(tmpdir(), 'cache-fix-proxy-pack-'));
const outFile = join(stageDir, 'dist', 'cache-fix-proxy.js');
const packDir = resolve(process.argv[2] ?? join(proxyDir, 'dist'));

const manifest = JSON.parse(readFileSync(join(proxyDir, 'package.json'), 'utf8'));
if (Object.keys(manifest.dependencies ?? {}).length > 0) {
  console.error('proxy/package.json must not have runtime dependencies: the proxy installs alone');
  process.exit(1);
}

await build({
  entryPoints: [join(proxyDir, 'src', 'bin', 'cache-fix-proxy.ts')],
  outfile: outFile,
  bundle: true,
  platform: 'node',
  target: 'node18',
  format: 'esm',
  banner: { js: '#!/usr/bin/env node' },
  legalComments: 'none',
  logLevel: 'warning',
});
chmodSync(outFile, 0o755);
console.error(`built ${outFile}`);

for (const file of manifest.files.filter((f) => !f.startsWith('dist/')).concat('package.json')) copyFileSync(join(proxyDir, file), join(stageDir, file));

mkdirSync(packDir, { recursive: true });
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const output = execFileSync(npm, ['pack', '--json', '--pack-destination', packDir], {
  cwd: stageDir,
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'inherit'],
});
const [packed] = JSON.parse(output);
rmSync(stageDir, { recursive: true, force: true });
console.log(join(packDir, packed.filename));
