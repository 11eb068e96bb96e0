// Backs up each file with removable pinned entries once, removes only those entries (atomic write,
// permissions kept) and records the change. With dryRun nothing is written.
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { backupFile } from './backup-file.ts';
import type { BackupManifest, ChangedFile } from './backup-manifest.ts';
import { writeFileAtomic } from './atomic-write.ts';
import type { PinnedEntry } from './pinned-entry.ts';
import { settingsJsonPins } from './settings-json-pins.ts';
import { shellStartupPins } from './shell-startup-pins.ts';

export interface CleanedFile {
  file: string;
  /** Null in a dry run. */
  backup: string | null;
  removed: PinnedEntry[];
}

export interface CleanReport {
  dryRun: boolean;
  operationId: string | null;
  changed: CleanedFile[];
  /** Entries found but not removable (edit by hand). */
  leftAlone: PinnedEntry[];
}

export interface CleanInput {
  entries: PinnedEntry[];
  dryRun: boolean;
  now: Date;
  manifest: Pick<BackupManifest, 'append'>;
}

function newContent(file: string, text: string, entries: PinnedEntry[]): string {
  if (entries[0]!.fileKind === 'settings') return settingsJsonPins.remove(text, entries.map((e) => e.variable));
  return shellStartupPins.remove(text, new Map(entries.map((e) => [e.line!, e.variable])));
}

export function cleanPinned(input: CleanInput): CleanReport {
  const byFile = new Map<string, PinnedEntry[]>();
  for (const entry of input.entries.filter((e) => e.removable)) byFile.set(entry.file, [...(byFile.get(entry.file) ?? []), entry]);
  const report: CleanReport = { dryRun: input.dryRun, operationId: null, changed: [], leftAlone: input.entries.filter((e) => !e.removable) };
  const recorded: ChangedFile[] = [];
  for (const [file, entries] of byFile) {
    if (input.dryRun) {
      report.changed.push({ file, backup: null, removed: entries });
      continue;
    }
    const text = readFileSync(file, 'utf8');
    const updated = newContent(file, text, entries);
    const backup = backupFile(file, input.now);
    writeFileAtomic(file, updated);
    report.changed.push({ file, backup, removed: entries });
    recorded.push({ file, backup, removed: entries.map((e) => e.variable), writtenSha256: createHash('sha256').update(updated).digest('hex') });
  }
  if (recorded.length > 0) {
    report.operationId = `${input.now.toISOString()}-${randomBytes(3).toString('hex')}`;
    input.manifest.append({ id: report.operationId, createdAt: input.now.toISOString(), files: recorded });
  }
  return report;
}
