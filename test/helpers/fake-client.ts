// Installs the fake client program (fake-client.mjs) under a name on a temp PATH directory, the way
// an npm-installed client appears, and reads back what it recorded.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PROGRAM = fileURLToPath(new URL('./fake-client.mjs', import.meta.url));

export interface ClientRecord {
  argv: string[];
  env: Record<string, string>;
  pid: number;
  signal: string | null;
  waiting?: boolean;
}

/** Writes `<binDir>/<name>` running the fake client with this Node; returns its path. */
export function installFakeClient(binDir: string, name = 'claude'): string {
  mkdirSync(binDir, { recursive: true });
  const path = join(binDir, name);
  writeFileSync(path, `#!/bin/sh\nexec '${process.execPath}' '${PROGRAM}' "$@"\n`);
  chmodSync(path, 0o755);
  return path;
}

export function readClientRecord(file: string): ClientRecord | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as ClientRecord;
  } catch {
    return undefined;
  }
}
