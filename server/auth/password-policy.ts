// One password rule for every way an account gets a password: the first operator account
// (GWCTL_ADMIN_PASSWORD), the operator page and API, and `gwctl admin`. Long enough, not a
// well-known password (or one with digits or symbols stuck to it), not the user name, not one
// character or a plain run of keys.
import { COMMON_PASSWORDS } from './common-passwords.ts';

export const PASSWORD_MIN_LENGTH = 8;
/** scrypt takes any length; a bound keeps a megabyte "password" from costing a megabyte of hashing. */
export const PASSWORD_MAX_LENGTH = 1024;

const RUNS = ['0123456789', 'abcdefghijklmnopqrstuvwxyz', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm', '1234567890'];

function isRun(text: string): boolean {
  if (new Set(text).size === 1) return true;
  return RUNS.some((run) => run.includes(text) || [...run].reverse().join('').includes(text));
}

/** What is wrong with the password, as a sentence for the person choosing it; undefined when it is fine. */
export function passwordProblem(password: string, username?: string): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH) return `The password needs at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (password.length > PASSWORD_MAX_LENGTH) return `The password may have at most ${PASSWORD_MAX_LENGTH} characters.`;
  const lower = password.toLowerCase();
  const stem = lower.replace(/^[\d\W_]+|[\d\W_]+$/g, '');
  if (COMMON_PASSWORDS.has(lower) || (stem.length >= 5 && COMMON_PASSWORDS.has(stem)) || isRun(lower) || (stem.length >= 4 && isRun(stem))) {
    return 'This password is among the most common ones and is guessed first; choose another.';
  }
  if (username && (lower === username.toLowerCase() || stem === username.toLowerCase())) return 'The password must not be the user name.';
  return undefined;
}
