import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGE_NAME } from '../version.ts';

/**
 * The same code runs from proxy/src (tests, tsx) and bundled from proxy/dist (installed), so the
 * package root is found by walking up to our own package.json rather than by a fixed offset.
 */
export function findPackageRoot(fromUrl: string): string {
  let dir = dirname(fileURLToPath(fromUrl));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === PACKAGE_NAME) return dir;
      } catch {
        // An unreadable manifest is not ours; keep walking.
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return dirname(fileURLToPath(fromUrl));
    dir = parent;
  }
}
