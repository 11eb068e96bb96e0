// The secrets of device sign-in and their forms. Each has a prefix of its own, so one is never
// mistaken for (or used as) another or for an API key; all are stored only as SHA-256 hashes.
import { randomInt } from 'node:crypto';
import { randomBase62 } from '../auth/random-tokens.ts';

export const ACCESS_TOKEN_PREFIX = 'gwa-';
export const REFRESH_TOKEN_PREFIX = 'gwr-';
export const DEVICE_CODE_PREFIX = 'gwd-';

/** Letters a person reads and types without confusion (no vowels: no words; no 0/O, 1/I). */
const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
export const USER_CODE_LENGTH = 8;

export function generateAccessToken(): string {
  return ACCESS_TOKEN_PREFIX + randomBase62(43);
}

export function generateRefreshToken(): string {
  return REFRESH_TOKEN_PREFIX + randomBase62(43);
}

export function generateDeviceCode(): string {
  return DEVICE_CODE_PREFIX + randomBase62(43);
}

/** Eight letters, stored without separator. */
export function generateUserCode(): string {
  let code = '';
  for (let i = 0; i < USER_CODE_LENGTH; i++) code += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
  return code;
}

/** WDJBMJHT → WDJB-MJHT, as shown to people. */
export function displayUserCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** What a person typed (any case, dashes or spaces) as stored; undefined when it cannot be a code. */
export function normalizeUserCode(typed: string): string | undefined {
  const code = typed.toUpperCase().replace(/[\s-]/g, '');
  if (code.length !== USER_CODE_LENGTH) return undefined;
  for (const letter of code) if (!USER_CODE_ALPHABET.includes(letter)) return undefined;
  return code;
}
