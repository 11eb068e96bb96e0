// What an API key is: `sk-` + 48 base62 characters; stored only as its SHA-256.
import { hash } from 'node:crypto';
import { maskKey } from '../../core/redact.ts';
import { randomBase62 } from './random-tokens.ts';

export const API_KEY_PREFIX = 'sk-';
export const API_KEY_RANDOM_LENGTH = 48;

export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBase62(API_KEY_RANDOM_LENGTH);
}

/** Keys carry ~285 bits of entropy, so a fast unsalted hash is enough to make the stored value useless. */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** Operator API tokens: a prefix of their own, so one is never mistaken for (or used as) an API key. */
export const OPERATOR_TOKEN_PREFIX = 'gwo-';

export function generateOperatorToken(): string {
  return OPERATOR_TOKEN_PREFIX + randomBase62(API_KEY_RANDOM_LENGTH);
}

export function apiKeyHint(key: string): string {
  return maskKey(key);
}
