// Sign-ins in one JSON file readable by its owner only (0600, in a 0700 folder), for machines
// without a keychain. Written to a temporary file and renamed, so a reader never sees half a file.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { gatewayKey, isSignInRecord, type CredentialStore, type SignInRecord } from './sign-in-record.ts';

export class FileCredentialStore implements CredentialStore {
  constructor(readonly path: string) {}

  get where(): string {
    return this.path;
  }

  private load(): Record<string, SignInRecord> {
    if (!existsSync(this.path)) return {};
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(this.path, 'utf8'));
    } catch {
      throw new Error(`${this.path} is not valid JSON. Delete it and run \`gwctl login\` again.`);
    }
    const records: Record<string, SignInRecord> = {};
    for (const [gateway, record] of Object.entries((parsed as { signIns?: Record<string, unknown> }).signIns ?? {})) if (isSignInRecord(record)) records[gateway] = record;
    return records;
  }

  private save(records: Record<string, SignInRecord>): void {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const temporary = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify({ signIns: records }, null, 2) + '\n', { mode: 0o600 });
    chmodSync(temporary, 0o600);
    renameSync(temporary, this.path);
  }

  async read(gateway: string): Promise<SignInRecord | undefined> {
    return this.load()[gatewayKey(gateway)];
  }

  async write(record: SignInRecord): Promise<void> {
    this.save({ ...this.load(), [gatewayKey(record.gateway)]: record });
  }

  async remove(gateway: string): Promise<boolean> {
    const records = this.load();
    const key = gatewayKey(gateway);
    if (!(key in records)) return false;
    delete records[key];
    this.save(records);
    return true;
  }
}
