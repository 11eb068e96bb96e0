#!/usr/bin/env node
// Entry point for `gwctl`: runs the build in dist/ (made by `npm run build`, which `npm ci` runs).
// Stack traces are mapped back to the TypeScript lines when they are formatted (lazy-source-maps.js).
import './lazy-source-maps.js';

try {
  await import('../dist/gwctl.js');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('dist/gwctl.js')) throw error;
  process.stderr.write('gwctl: the build is missing (dist/gwctl.js). In a checkout, run `npm run build` (or `npm ci`).\n');
  process.exitCode = 3;
}
