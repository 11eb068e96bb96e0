#!/usr/bin/env node
// Entry point for `gwctl`: loads the TypeScript sources through tsx so a checkout
// and `npm install -g .` run the same code without a build step.
import { register } from 'tsx/esm/api';

register();
await import('../cli/main.ts');
