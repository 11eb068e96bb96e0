// What the proxy leaves behind when traffic passes (acceptance layers 2 and 3): the
// quota-status files, the debug log when debug is on, the launchd logs on macOS. A snapshot before a
// session and a comparison after it tells which appeared or were updated by that session.
import { accessSync, constants, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { proxyDebugLog, proxyLaunchdLogs, quotaStatusDir, tildePath } from '../paths.ts';

export type ObservationKind = 'account' | 'session' | 'debug-log' | 'launchd-log';

export interface ObservationFile {
  path: string;
  kind: ObservationKind;
  mtimeMs: number;
}

export type Snapshot = Map<string, number>;

function stat(path: string): number | undefined {
  try {
    const s = statSync(path);
    return s.isFile() ? s.mtimeMs : undefined;
  } catch {
    return undefined;
  }
}

export function observationFiles(env: NodeJS.ProcessEnv, debugLog?: string): ObservationFile[] {
  const dir = quotaStatusDir(env);
  const files: ObservationFile[] = [];
  const add = (path: string, kind: ObservationKind) => {
    const mtimeMs = stat(path);
    if (mtimeMs !== undefined) files.push({ path, kind, mtimeMs });
  };
  add(join(dir, 'account.json'), 'account');
  try {
    for (const name of readdirSync(join(dir, 'sessions')).sort()) if (name.endsWith('.json')) add(join(dir, 'sessions', name), 'session');
  } catch {
    // No session written yet.
  }
  add(debugLog ?? env.CACHE_FIX_DEBUG_LOG ?? proxyDebugLog(env), 'debug-log');
  for (const log of proxyLaunchdLogs(env)) add(log, 'launchd-log');
  return files;
}

export function snapshot(files: ObservationFile[]): Snapshot {
  return new Map(files.map((f) => [f.path, f.mtimeMs]));
}

/** Files that are new or have another modification time than in the snapshot. */
export function changedSince(before: Snapshot, now: ObservationFile[]): ObservationFile[] {
  return now.filter((f) => before.get(f.path) !== f.mtimeMs);
}

export function describeFile(file: ObservationFile, env: NodeJS.ProcessEnv): string {
  return `${tildePath(file.path, env)} (${file.kind}, ${new Date(file.mtimeMs).toISOString()})`;
}

export interface Writability {
  writable: boolean;
  observed: string;
}

/** Whether the proxy (same user) could create or update files under ~/.claude/quota-status/. */
export function quotaStatusWritable(env: NodeJS.ProcessEnv): Writability {
  const dir = quotaStatusDir(env);
  for (let path = dir; ; path = dirname(path)) {
    let isDir: boolean;
    try {
      isDir = statSync(path).isDirectory();
    } catch {
      if (dirname(path) === path) return { writable: false, observed: `no existing parent of ${tildePath(dir, env)}` };
      continue;
    }
    const shown = tildePath(path, env);
    if (!isDir) return { writable: false, observed: `${shown} is a file, not a directory, so ${tildePath(dir, env)} cannot be created or written` };
    try {
      accessSync(path, constants.W_OK | constants.X_OK);
    } catch {
      return { writable: false, observed: `${shown} is not writable for this user` };
    }
    if (path !== dir) {
      // The directory itself is missing; the proxy creates it, so a writable parent is enough.
      return { writable: true, observed: `${tildePath(dir, env)} does not exist yet; ${shown} is writable` };
    }
    const sessions = join(dir, 'sessions');
    try {
      if (!statSync(sessions).isDirectory()) return { writable: false, observed: `${tildePath(sessions, env)} is a file, not a directory` };
      accessSync(sessions, constants.W_OK | constants.X_OK);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return { writable: false, observed: `${tildePath(sessions, env)} is not writable` };
    }
    return { writable: true, observed: `${shown} is a writable directory` };
  }
}
