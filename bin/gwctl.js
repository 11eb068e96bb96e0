#!/usr/bin/env node
// Entry point for `gwctl`: loads the TypeScript sources through tsx so a checkout
// and `npm install -g .` run the same code without a build step. The project's tsconfig is named
// explicitly: tsx would otherwise look for one in the caller's working directory.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
await import('../cli/main.ts');
