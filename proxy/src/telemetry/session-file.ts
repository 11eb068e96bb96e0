import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sha256Hex } from '../util/sha256.ts';
import { isObject, type JsonObject } from '../util/json-value.ts';

export function quotaStatusDir(homeDir: string): string {
  return join(homeDir, '.claude', 'quota-status');
}

/** Session ids come from a request header, so anything unusual is hashed rather than used as a path. */
export function sessionFileName(sessionId: string | null): string {
  if (sessionId === null || sessionId.trim() === '') return 'unknown';
  if (/^[A-Za-z0-9_-]{1,128}$/.test(sessionId)) return sessionId;
  return `inv-${sha256Hex(sessionId).slice(0, 16)}`;
}

export function sessionFilePath(homeDir: string, sessionId: string | null): string {
  return join(quotaStatusDir(homeDir), 'sessions', `${sessionFileName(sessionId)}.json`);
}

/** Earlier state of a session (after a proxy restart); missing or damaged files read as empty. */
export function readSessionFile(homeDir: string, sessionId: string | null): JsonObject {
  try {
    const parsed: unknown = JSON.parse(readFileSync(sessionFilePath(homeDir, sessionId), 'utf8'));
    return isObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}
