// The cause an HTTP status points to when nothing more specific is known, shared by the diagnosis
// and the proxy acceptance so a status is named the same everywhere.
import type { CauseCode } from './cause-codes.ts';

export const GENERIC_CAUSE_BY_STATUS: Readonly<Record<number, CauseCode>> = {
  400: 'REQUEST_REJECTED',
  401: 'KEY_REJECTED',
  403: 'AUTH_FORBIDDEN',
  404: 'URL_NOT_FOUND',
  413: 'REQUEST_TOO_LARGE',
  429: 'RATE_LIMITED',
  500: 'UPSTREAM_FAULT',
  502: 'UPSTREAM_FAULT',
  503: 'UPSTREAM_FAULT',
  504: 'UPSTREAM_FAULT',
  529: 'UPSTREAM_OVERLOADED',
};
