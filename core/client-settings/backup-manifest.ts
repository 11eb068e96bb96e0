// The record of what `gwctl start` backed up and changed, kept in gwctl's state directory so
// `gwctl start --restore` can put the backups back. Written atomically, owner-only.
import { chmodSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultStateDir } from '../paths.ts';
import { writeFileAtomic } from './atomic-write.ts';

export interface ChangedFile {
  file: string;
  backup: string;
  /** Variables removed (names only, never values). */
  removed: string[];
  /** sha256 of the content gwctl wrote, to notice later edits before a restore. */
  writtenSha256: string;
}

export interface BackupOperation {
  id: string;
  createdAt: string;
  files: ChangedFile[];
  restoredAt?: string;
}

interface ManifestDocument {
  schemaVersion: 1;
  operations: BackupOperation[];
}

export class BackupManifest {
  readonly path: string;

  constructor(env: NodeJS.ProcessEnv) {
    this.path = join(defaultStateDir(env), 'start-backups.json');
  }

  read(): ManifestDocument {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch {
      return { schemaVersion: 1, operations: [] };
    }
    const doc = JSON.parse(text) as ManifestDocument;
    return { schemaVersion: 1, operations: Array.isArray(doc.operations) ? doc.operations : [] };
  }

  /** The newest operation not restored yet. */
  latestOpen(): BackupOperation | undefined {
    return this.read().operations.filter((op) => !op.restoredAt).at(-1);
  }

  append(operation: BackupOperation): void {
    const doc = this.read();
    doc.operations.push(operation);
    this.write(doc);
  }

  markRestored(id: string, at: Date): void {
    const doc = this.read();
    for (const op of doc.operations) if (op.id === id) op.restoredAt = at.toISOString();
    this.write(doc);
  }

  private write(doc: ManifestDocument): void {
    const dir = join(this.path, '..');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
    writeFileAtomic(this.path, JSON.stringify(doc, null, 2) + '\n', 0o600);
  }
}
