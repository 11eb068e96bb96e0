// Writes a file so a reader never sees half of it and a crash never loses it: a temp file in the same
// directory with the old file's permissions, flushed, then renamed over. A symlinked file (dotfiles
// managers) is written through to its target so the link survives.
import { closeSync, fsyncSync, openSync, realpathSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';

export function writeFileAtomic(path: string, content: string | Buffer, fallbackMode = 0o600): void {
  let target = path;
  let mode = fallbackMode;
  try {
    target = realpathSync(path);
    mode = statSync(target).mode & 0o7777;
  } catch {
    // A new file: keep the path and the fallback mode.
  }
  const temp = join(dirname(target), `.${basename(target)}.gwctl-tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  const fd = openSync(temp, 'wx', mode);
  try {
    writeSync(fd, typeof content === 'string' ? Buffer.from(content, 'utf8') : content);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    unlinkSync(temp);
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(temp, target);
  } catch (error) {
    unlinkSync(temp);
    throw error;
  }
}
