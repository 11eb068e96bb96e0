#!/usr/bin/env node
// Builds the standalone cache-fix-proxy package: one ESM file for Node >= 18 with no runtime
// dependencies, then `npm pack`s it. Usage: node scripts/pack-proxy.mjs [output-dir]
// Prints the absolute path of the tarball on stdout (progress goes to stderr).
import { build } from 'esbuild';
import { chmodSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const proxyDir = join(root, 'proxy');
const outFile = join(proxyDir, 'dist', 'cache-fix-proxy.js');
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

mkdirSync(packDir, { recursive: true });
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const output = execFileSync(npm, ['pack', '--json', '--pack-destination', packDir], {
  cwd: proxyDir,
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'inherit'],
});
const [packed] = JSON.parse(output);
console.log(join(packDir, packed.filename));
