// Scans the client settings files and the shell startup files for pinned base-address and credential
// variables. Missing files are skipped; unreadable or invalid ones are reported, never changed.
import { readFileSync } from 'node:fs';
import type { PinnedEntry, PinVariables } from './pinned-entry.ts';
import { settingsJsonPins } from './settings-json-pins.ts';
import { shellStartupPins } from './shell-startup-pins.ts';

export interface PinScan {
  entries: PinnedEntry[];
  /** Files that exist but could not be read or parsed. */
  problems: Array<{ file: string; reason: string }>;
}

export interface PinScanInput {
  settingsFiles: string[];
  shellFiles: string[];
  vars: PinVariables;
}

function readText(file: string): string | { error: string } | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    return { error: `cannot read (${code ?? (error as Error).message})` };
  }
}

export function findPinned(input: PinScanInput): PinScan {
  const scan: PinScan = { entries: [], problems: [] };
  for (const file of input.settingsFiles) {
    const text = readText(file);
    if (text === undefined) continue;
    if (typeof text !== 'string') {
      scan.problems.push({ file, reason: text.error });
      continue;
    }
    const found = settingsJsonPins.find(file, text, input.vars);
    if (found.ok) scan.entries.push(...found.entries);
    else scan.problems.push({ file, reason: found.reason });
  }
  for (const file of input.shellFiles) {
    const text = readText(file);
    if (text === undefined) continue;
    if (typeof text !== 'string') scan.problems.push({ file, reason: text.error });
    else scan.entries.push(...shellStartupPins.find(file, text, input.vars));
  }
  return scan;
}
