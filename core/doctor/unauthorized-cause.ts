// Which cause a 401 of the service stands for: what the key lint found, else what the answer says
// (the gateway's error code on chat-completions routes, its message on the messages route).
import { GATEWAY_ERROR_CAUSES } from '../causes/cause-by-name.ts';
import type { CauseCode } from './cause-codes.ts';
import type { KeyFinding } from './key-lint.ts';

export interface UnauthorizedAnswer {
  /** `error.code` (or `error.type` when there is no code) of the answer. */
  errorCode?: string;
  errorMessage?: string;
  keyFindings: KeyFinding[];
}

export function unauthorizedCause(answer: UnauthorizedAnswer): CauseCode {
  const lint = new Set(answer.keyFindings.map((f) => f.cause));
  const message = (answer.errorMessage ?? '').toLowerCase();
  if (answer.errorCode === 'missing_api_key' || lint.has('KEY_MISSING')) return 'KEY_MISSING';
  // Only the service's own findings about this key ("contains a space or tab", "is wrapped in
  // quotes"), never the advice texts of other refusals, which name spaces and quotes too.
  if (lint.has('KEY_QUOTES') || /\b(is wrapped in quotes|contains a typographic quote)\b/.test(message)) return 'KEY_QUOTES';
  if (lint.has('KEY_WHITESPACE') || /\bcontains a (space|tab|line break)\b/.test(message)) return 'KEY_WHITESPACE';
  const named = answer.errorCode ? GATEWAY_ERROR_CAUSES[answer.errorCode] : undefined;
  if (named === 'KEY_EXPIRED' || /this api key expired at/.test(message)) return 'KEY_EXPIRED';
  if (named === 'USER_DISABLED' || /account that owns this key .* is disabled/.test(message)) return 'USER_DISABLED';
  return 'KEY_REJECTED';
}
