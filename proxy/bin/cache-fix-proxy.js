#!/usr/bin/env node
// cache-fix-proxy's command: switches on source maps (stack traces then name the TypeScript lines;
// they apply only to modules loaded afterwards), then runs the bundle the build makes in dist/.
process.setSourceMapsEnabled(true);
await import('../dist/cache-fix-proxy.js');
