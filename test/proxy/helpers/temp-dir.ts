import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh directory removed when the test ends; every test gets its own HOME and config. */
export function tempDir(t: { after(fn: () => void | Promise<void>): void }, prefix = 'cfp-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
