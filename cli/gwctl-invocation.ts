// How a person runs gwctl in this installation, for commands printed in hints (the serve banner, the
// first admin password block): in a checkout `gwctl` is not on PATH, `npm run -s gwctl --` is (-s keeps
// npm's own banner out of stdout, so `KEY=$(…)` captures the key alone); an installed package is `gwctl`.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The package root: two levels up from this file in a checkout, and from the bundled chunk in dist/. */
const PACKAGE_ROOT = fileURLToPath(new URL('../', import.meta.url));

export function gwctlInvocation(env: NodeJS.ProcessEnv, root = PACKAGE_ROOT): string {
  // `npm start` / `npm run gwctl` set npm_lifecycle_event; a git work tree (or worktree file) is a checkout.
  const checkout = env.npm_lifecycle_event === 'start' || env.npm_lifecycle_event === 'gwctl' || existsSync(`${root}/.git`);
  return checkout ? 'npm run -s gwctl --' : 'gwctl';
}
