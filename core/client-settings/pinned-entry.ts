// A base-address or credential variable fixed in a client settings file or a shell startup file.
import { maskCredential } from '../doctor/mask-credential.ts';

export type PinRole = 'baseUrl' | 'token' | 'apiKey';

export interface PinnedEntry {
  file: string;
  fileKind: 'settings' | 'shell';
  variable: string;
  role: PinRole;
  /** What may be shown: the address, or a masked key. */
  shown: string;
  /** 1-based line in a shell file. */
  line?: number;
  /** False when the entry cannot be removed safely by a program (then `note` says why). */
  removable: boolean;
  note?: string;
  /** The raw value; not enumerable, so it never reaches JSON output. */
  readonly value: string;
}

export interface PinVariables {
  baseUrl: string;
  token: string;
  apiKey: string;
}

/** Builds an entry whose raw value is kept out of JSON (credentials are shown masked). */
export function makeEntry(fields: Omit<PinnedEntry, 'value' | 'shown'>, value: string): PinnedEntry {
  const entry = { ...fields, shown: fields.role === 'baseUrl' ? value : maskCredential(value) } as PinnedEntry;
  Object.defineProperty(entry, 'value', { value, enumerable: false });
  return entry;
}
