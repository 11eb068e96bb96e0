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

export function lockJournalDir(dir: string): void {
  const path = join(dir, 'lock');
  let holder = 0;
  try {
    holder = Number.parseInt(readFileSync(path, 'utf8'), 10) || 0;
  } catch {
    holder = 0;
  }
  if (holder > 0 && holder !== process.pid && isRunning(holder)) {
    throw new ConfigError(
      'usage_journal_in_use',
      `Another gateway process (pid ${holder}) writes the usage journal in ${dir}.`,
      'Give each gateway that shares this data directory its own --instance-name (GWCTL_INSTANCE_NAME), or stop the other one. If no gateway runs, delete the lock file.',
    );
  }
  writeFileSync(path, `${process.pid}\n`);
}

export function unlockJournalDir(dir: string): void {
  try {
    unlinkSync(join(dir, 'lock'));
  } catch {
    // Gone already.
  }
}
