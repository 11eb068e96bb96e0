#!/usr/bin/env node
// Builds everything that runs outside the tests: gwctl (CLI, TUI, gateway) into dist/, the web
// pages' browser code into dist/web/, the cache-fix-proxy package into proxy/dist/ (what its bin
// runs in a checkout) and the proxy's 4.2.1 tarball proxy/dist/cache-fix-proxy-4.2.1.tgz (what
// `gwctl proxy install` installs by default, and what travels inside the gwctl package). `npm ci`
// runs it (prepare); so does the test runner, first. Unchanged outputs are not rewritten and the
// tarball is packed again only when its inputs changed.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildGwctl } from './build/build-gwctl.mjs';
import { buildWeb } from './build/build-web.mjs';
import { bundleProxy, packProxy, proxyManifest, writeFileIfChanged } from './build/build-proxy.mjs';

const root = new URL('..', import.meta.url).pathname;
const started = Date.now();

let gwctl;
let web;
try {
  gwctl = await buildGwctl(root);
  web = await buildWeb(root);
} catch (error) {
  // esbuild has already printed its errors with their locations.
  if (!Array.isArray(error.errors)) console.error(`build: ${error.message}`);
  process.exit(1);
}

const proxyDist = join(root, 'proxy', 'dist');
const manifest = proxyManifest(root);
const tarball = join(proxyDist, `${manifest.name}-${manifest.version}.tgz`);
const stamp = `${tarball}.inputs`;
const proxy = await bundleProxy(root, proxyDist, { keep: (path) => path === tarball || path === stamp });

const hash = createHash('sha256');
for (const file of ['cache-fix-proxy.js', 'cache-fix-proxy.js.map']) hash.update(readFileSync(join(proxyDist, file)));
for (const file of manifest.files.filter((f) => !f.startsWith('dist/')).concat('package.json')) hash.update(readFileSync(join(root, 'proxy', file)));
const inputs = `${hash.digest('hex')}\n`;
let packed = false;
if (!existsSync(tarball) || !existsSync(stamp) || readFileSync(stamp, 'utf8') !== inputs) {
  const made = await packProxy(root, proxyDist);
  if (made !== tarball) throw new Error(`npm pack made ${made}, expected ${tarball}`);
  writeFileIfChanged(stamp, inputs);
  packed = true;
}

console.error(
  `build: dist/ ${gwctl.written} written, ${gwctl.removed} removed; dist/web/ ${web.written} written, ${web.removed} removed; proxy/dist/ ${proxy.written} written; ` +
    `proxy tarball ${packed ? 'packed' : 'up to date'} (${Date.now() - started} ms)`,
);
