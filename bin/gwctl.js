#!/usr/bin/env node
// Entry point for `gwctl`: runs the build in dist/ (made by `npm run build`, which `npm ci` runs).
// Source maps are switched on before the bundle loads, so stack traces name the TypeScript lines.
process.setSourceMapsEnabled(true);
try {
  await import('../dist/gwctl.js');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('dist/gwctl.js')) throw error;
  process.stderr.write('gwctl: the build is missing (dist/gwctl.js). In a checkout, run `npm run build` (or `npm ci`).\n');
  process.exitCode = 3;
}
