#!/usr/bin/env node
// Packs the standalone cache-fix-proxy package (see build/build-proxy.mjs) into a folder.
// Usage: node scripts/pack-proxy.mjs [output-dir]   (default proxy/dist)
// Prints the absolute path of the tarball on stdout.
import { join, resolve } from 'node:path';
import { packProxy } from './build/build-proxy.mjs';

const root = new URL('..', import.meta.url).pathname;
console.log(await packProxy(root, resolve(process.argv[2] ?? join(root, 'proxy', 'dist'))));
