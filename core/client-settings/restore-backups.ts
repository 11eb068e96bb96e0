// `gwctl start --restore`: puts back the files of the newest clean-up. A file edited since gwctl
// changed it is itself backed up first, so nothing is lost either way.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { backupFile } from './backup-file.ts';
import type { BackupManifest } from './backup-manifest.ts';
import { writeFileAtomic } from './atomic-write.ts';

export interface RestoredFile {
  file: string;
  backup: string;
  removed: string[];
  /** Where the file's later edits were saved before restoring, if it had changed since. */
  keptCurrentAs: string | null;
  /** The backup is gone: this file could not be restored. */
  missingBackup: boolean;
}

export interface RestoreReport {
  dryRun: boolean;
  operationId: string | null;
  createdAt: string | null;
  files: RestoredFile[];
}

export function restoreBackups(input: { manifest: Pick<BackupManifest, 'latestOpen' | 'markRestored'>; dryRun: boolean; now: Date }): RestoreReport {
  const op = input.manifest.latestOpen();
  if (!op) return { dryRun: input.dryRun, operationId: null, createdAt: null, files: [] };
  const files: RestoredFile[] = [];
  for (const changed of op.files) {
    const result: RestoredFile = { file: changed.file, backup: changed.backup, removed: changed.removed, keptCurrentAs: null, missingBackup: !existsSync(changed.backup) };
    files.push(result);
    if (result.missingBackup) continue;
    const current = existsSync(changed.file) ? readFileSync(changed.file) : undefined;
    const editedSince = current !== undefined && createHash('sha256').update(current).digest('hex') !== changed.writtenSha256;
    if (input.dryRun) {
      result.keptCurrentAs = editedSince ? '(would be backed up first)' : null;
      continue;
    }
    if (editedSince) result.keptCurrentAs = backupFile(changed.file, input.now);
    writeFileAtomic(changed.file, readFileSync(changed.backup));
  }
  if (!input.dryRun) input.manifest.markRestored(op.id, input.now);
  return { dryRun: input.dryRun, operationId: op.id, createdAt: op.createdAt, files };
}
