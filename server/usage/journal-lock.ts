// One gateway process per usage journal directory: a `lock` file holding the owner's pid. A lock
// left by a process that no longer runs (killed) is taken over; one held by a live process is a
// configuration error (two gateways sharing a data directory need their own --instance-name).
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../errors/config-error.ts';

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Directories this process holds (a second gateway in the same process would carry the same pid). */
const heldHere = new Set<string>();

export function lockJournalDir(dir: string): void {
  const path = join(dir, 'lock');
  if (heldHere.has(dir)) throw inUse(dir, process.pid);
  let holder = 0;
  try {
    holder = Number.parseInt(readFileSync(path, 'utf8'), 10) || 0;
  } catch {
    holder = 0;
  }
  if (holder > 0 && holder !== process.pid && isRunning(holder)) throw inUse(dir, holder);
  writeFileSync(path, `${process.pid}\n`);
  heldHere.add(dir);
}

function inUse(dir: string, holder: number): ConfigError {
  return new ConfigError(
    'usage_journal_in_use',
    `Another gateway (pid ${holder}) writes the usage journal in ${dir}.`,
    'Give each gateway that shares this data directory its own --instance-name (GWCTL_INSTANCE_NAME), or stop the other one. If no gateway runs, delete the lock file.',
  );
}

export function unlockJournalDir(dir: string): void {
  heldHere.delete(dir);
  try {
    unlinkSync(join(dir, 'lock'));
  } catch {
    // Gone already.
  }
}
