// A timestamped copy next to the file, with its permissions; an existing backup is never overwritten.
import { chmodSync, constants, copyFileSync, existsSync, statSync } from 'node:fs';

function backupStamp(now: Date): string {
  return now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
}

/** Returns the path of the new backup: `<file>.gwctl-backup-20261121T101500Z[-N]`. */
export function backupFile(path: string, now: Date): string {
  const base = `${path}.gwctl-backup-${backupStamp(now)}`;
  let candidate = base;
  for (let n = 2; existsSync(candidate); n++) candidate = `${base}-${n}`;
  // COPYFILE_EXCL: if another process took the name in between, fail rather than overwrite.
  copyFileSync(path, candidate, constants.COPYFILE_EXCL);
  chmodSync(candidate, statSync(path).mode & 0o7777);
  return candidate;
}
