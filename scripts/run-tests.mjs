#!/usr/bin/env node
// Runs the whole suite with node's built-in runner through tsx.
// Node 20 does not expand globs, so the test files are collected here.
// End-to-end tests run bin/gwctl.js and the proxy bin, which run the build, so the build runs
// first (it rewrites only what changed) and a failed build stops the run: tests never see stale output.
// Usage: node scripts/run-tests.mjs [path-prefix ...]
import { readdirSync, statSync } from 'node:fs';
import { delimiter, join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const testDir = join(root, 'test');

function collect(dir) {
  const found = [];
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) found.push(...collect(full));
    else if (/\.test\.tsx?$/.test(name)) found.push(relative(root, full));
  }
  return found;
}

const prefixes = process.argv.slice(2);
const files = collect(testDir).filter((f) => prefixes.length === 0 || prefixes.some((p) => f.startsWith(p)));
if (files.length === 0) {
  console.error(`no test files matched ${prefixes.join(' ') || 'test/'}`);
  process.exit(1);
}
const build = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) {
  console.error('the build failed: no tests were run');
  process.exit(build.status ?? 1);
}
// `npm test` puts this checkout's node_modules/.bin first on PATH, and with it the workspace's
// cache-fix-proxy: a test's "user machine" would find a proxy installed. Tests see the PATH a user
// has, whether started by npm or directly.
const inCheckout = (dir) => dir === root.replace(/\/$/, '') || dir.startsWith(root);
const PATH = (process.env.PATH ?? '').split(delimiter).filter((dir) => !(inCheckout(dir) && /node_modules[\\/]\.bin$/.test(dir))).join(delimiter);
// The timeout also bounds each test file as a whole; the packed-install test compiles better-sqlite3
// during its global install (minutes on a busy 2-core machine). Tests bound their own waits.
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=900000', ...files],
  { cwd: root, stdio: 'inherit', env: { ...process.env, PATH, NODE_ENV: 'test' } },
);
process.exit(result.status ?? 1);
