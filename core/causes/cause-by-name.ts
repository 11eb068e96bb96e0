// Finds a cause by the name a user has at hand: a cause code as gwctl prints it (QUOTA_EXCEEDED, any
// case) or the error code of a gateway answer (quota_exceeded, invalid_api_key), so `gwctl explain`
// answers both.
import { CAUSE_CODE_LIST, isCauseCode, type CauseCode } from './catalogue.ts';

/** The gateway's error codes (the `code` of its error bodies) and the cause each stands for. */
export const GATEWAY_ERROR_CAUSES: Readonly<Record<string, CauseCode>> = {
  missing_api_key: 'KEY_MISSING',
  invalid_api_key: 'KEY_REJECTED',
  key_expired: 'KEY_EXPIRED',
  account_disabled: 'USER_DISABLED',
  model_not_allowed: 'MODEL_NOT_ALLOWED',
  quota_exceeded: 'QUOTA_EXCEEDED',
  rate_limit_exceeded: 'RATE_LIMITED',
  doubled_v1: 'URL_DOUBLE_V1',
  missing_v1: 'URL_MISSING_V1',
};

export function causeByName(name: string): CauseCode | undefined {
  const trimmed = name.trim();
  const upper = trimmed.toUpperCase();
  if (isCauseCode(upper)) return upper;
  return GATEWAY_ERROR_CAUSES[trimmed.toLowerCase()];
}

/** For error messages: every name causeByName knows. */
export function knownCauseNames(): string {
  return `${CAUSE_CODE_LIST.join(', ')}; or a gateway error code (${Object.keys(GATEWAY_ERROR_CAUSES).join(', ')})`;
}
