// Rewrites server/deploy/gwctl.env from the settings table (server/deploy/serve-settings.ts).
// Run after changing a `gwctl serve` setting: node --import tsx scripts/write-gwctl-env.ts
import { writeFileSync } from 'node:fs';
import { renderEnvFile } from '../server/deploy/serve-settings.ts';

const target = new URL('../server/deploy/gwctl.env', import.meta.url);
writeFileSync(target, renderEnvFile());
process.stdout.write(`wrote ${target.pathname}\n`);
