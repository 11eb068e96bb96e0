// Bundles the browser code of the web pages: every server/web/client/<page>-entry.ts becomes
// dist/web/<page>.js (minified ESM with a linked source map), served by the gateway as
// /assets/js/<page>.js. Modules shared by several entries go into hashed chunks beside them, so a
// page loads each shared module once. npm packages (markdown-it, highlight.js) and core/ modules
// (the SSE parser) are bundled: the pages' CSP allows scripts from the gateway itself only.
import { build } from 'esbuild';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeOutputs } from './write-outputs.mjs';

export const WEB_SOURCE_DIR = join('server', 'web', 'client');
export const WEB_OUT_DIR = join('dist', 'web');
const ENTRY = /^([a-z0-9-]+)-entry\.ts$/;

export function webEntries(root) {
  const entries = {};
  for (const name of readdirSync(join(root, WEB_SOURCE_DIR)).sort()) {
    const match = ENTRY.exec(name);
    if (match) entries[match[1]] = join(WEB_SOURCE_DIR, name);
  }
  return entries;
}

export async function buildWeb(root) {
  const outdir = join(root, WEB_OUT_DIR);
  const result = await build({
    absWorkingDir: root,
    entryPoints: webEntries(root),
    outdir,
    entryNames: '[name]',
    chunkNames: 'chunk-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    // Browsers of the last few years: module scripts, optional chaining, top-level await.
    target: ['es2022', 'chrome100', 'firefox100', 'safari15.4'],
    minify: true,
    sourcemap: 'linked',
    // The sources are not served, so the maps carry them for the browser's developer tools.
    sourcesContent: true,
    legalComments: 'eof',
    write: false,
    logLevel: 'warning',
  });
  return writeOutputs(outdir, result.outputFiles);
}
