// Whether a folder is inside a git work tree (a .git folder or file in it or above it), as a client
// that insists on one (codex exec) sees it.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export function inGitRepository(cwd: string): boolean {
  let dir = resolve(cwd);
  for (;;) {
    if (existsSync(join(dir, '.git'))) return true;
    const up = dirname(dir);
    if (up === dir) return false;
    dir = up;
  }
}
