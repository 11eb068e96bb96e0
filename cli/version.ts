// gwctl's version, from its package.json (two levels up from this file in a checkout and, through
// the build's source-URL rewrite, from the bundled chunk too).
import { readFileSync } from 'node:fs';

export function gwctlVersion(): string {
  return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}
