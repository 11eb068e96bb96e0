// Builds the standalone cache-fix-proxy package: one bundled ESM file for Node >= 18 with no runtime
// dependencies, run by the package's bin (proxy/bin/cache-fix-proxy.js, a committed stub that turns
// source maps on first; committed so that npm can link it before the build has run).
// bundleProxy() writes proxy/dist/ (what the checkout's `cache-fix-proxy` bin runs);
// packProxy() stages the package files in a private temp folder and `npm pack`s them there, so
// concurrent packs (tests) never race.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { writeOutputs } from './write-outputs.mjs';

const BUNDLE_FILE = 'cache-fix-proxy.js';

export function proxyManifest(root) {
  const manifest = JSON.parse(readFileSync(join(root, 'proxy', 'package.json'), 'utf8'));
  if (Object.keys(manifest.dependencies ?? {}).length > 0) {
    throw new Error('proxy/package.json must not have runtime dependencies: the proxy installs alone');
  }
  return manifest;
}

/** Bundles proxy/src into distDir (bundle and map); only changed files are written. */
export async function bundleProxy(root, distDir, { keep } = {}) {
  proxyManifest(root);
  const result = await build({
    absWorkingDir: root,
    entryPoints: [join(root, 'proxy', 'src', 'bin', 'cache-fix-proxy.ts')],
    outfile: join(distDir, BUNDLE_FILE),
    bundle: true,
    platform: 'node',
    target: 'node18',
    format: 'esm',
    sourcemap: 'linked',
    sourcesContent: false,
    legalComments: 'none',
    write: false,
    logLevel: 'warning',
  });
  return writeOutputs(distDir, result.outputFiles, { keep });
}

/** Stages the package (bundle + manifest's files) and packs it into packDir; returns the tarball path. */
export async function packProxy(root, packDir) {
  const manifest = proxyManifest(root);
  const stageDir = mkdtempSync(join(tmpdir(), 'cache-fix-proxy-pack-'));
  try {
    await bundleProxy(root, join(stageDir, 'dist'));
    for (const file of manifest.files.filter((f) => !f.startsWith('dist/')).concat('package.json')) {
      mkdirSync(dirname(join(stageDir, file)), { recursive: true });
      copyFileSync(join(root, 'proxy', file), join(stageDir, file));
    }
    mkdirSync(packDir, { recursive: true });
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    // --ignore-scripts: the staged package has none, and a pack run from a lifecycle script (prepare)
    // must not start another.
    const output = execFileSync(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', packDir], {
      cwd: stageDir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const [packed] = JSON.parse(output.slice(output.indexOf('[')));
    return join(packDir, packed.filename);
  } finally {
    rmSync(stageDir, { recursive: true, force: true });
  }
}

export function writeFileIfChanged(path, text) {
  try {
    if (readFileSync(path, 'utf8') === text) return false;
  } catch {
    // Missing: write it.
  }
  writeFileSync(path, text);
  return true;
}
