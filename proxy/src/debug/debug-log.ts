import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import { errorMessage } from '../errors.ts';

export interface DebugLog {
  readonly enabled: boolean;
  /** Only metadata is passed in here: callers never hand over bodies or secret header values. */
  write(event: string, fields: Record<string, unknown>): void;
  close(): Promise<void>;
}

const disabled: DebugLog = {
  enabled: false,
  write() {},
  close: async () => {},
};

/** Appends one line per event (`<iso time> <event> <json>`) when CACHE_FIX_DEBUG is set. */
export function openDebugLog(enabled: boolean, path: string, warn: (line: string) => void): DebugLog {
  if (!enabled) return disabled;
  let stream: WriteStream;
  try {
    mkdirSync(dirname(path), { recursive: true });
    stream = createWriteStream(path, { flags: 'a', mode: 0o600 });
  } catch (error) {
    warn(`[debug] cannot open ${path}: ${errorMessage(error)}; debug logging is off`);
    return disabled;
  }
  stream.on('error', (error) => warn(`[debug] writing ${path} failed: ${error.message}`));
  warn(`[debug] logging request metadata (secrets redacted, no bodies) to ${path}`);
  return {
    enabled: true,
    write(event, fields) {
      stream.write(`${new Date().toISOString()} ${event} ${JSON.stringify(fields)}\n`);
    },
    close: () => new Promise((resolve) => stream.end(resolve)),
  };
}
