// The cause of one request-log entry, from what the gateway recorded and what is known now of its
// key and owner. Pure: the lookups are the caller's (explain-request.ts). The codes are the
// catalogue's (core/causes), the same the client-side diagnosis names.
import type { CauseCode } from '../../core/causes/catalogue.ts';
import { formatTime } from '../../core/format-time.ts';
import type { RequestLogRecord } from '../store/request-log-repo.ts';
import type { DeletedKeyRecord } from '../store/deleted-keys-repo.ts';

export interface EntryContext {
  /** The tombstone of the refused value's key, when it was deleted; with who deleted it (audit log). */
  deletedKey?: DeletedKeyRecord & { deletedBy?: string };
  /** The entry's key as it is now (null: it no longer exists). */
  keyNow?: { hint: string; expiresAt: string | null } | null;
  /** The entry's owner as it is now (null: deleted). */
  ownerNow?: { username: string; disabled: boolean } | null;
}

export interface CauseFinding {
  cause: CauseCode;
  /** What the log and the lookups say about this request, in words, most telling first. */
  facts: string[];
}

const CODE_CAUSES: Readonly<Record<string, CauseCode>> = {
  missing_api_key: 'KEY_MISSING',
  malformed_authorization: 'KEY_MISSING',
  account_disabled: 'USER_DISABLED',
  key_expired: 'KEY_EXPIRED',
  quota_exceeded: 'QUOTA_EXCEEDED',
  rate_limit_exceeded: 'RATE_LIMITED',
  model_not_allowed: 'MODEL_NOT_ALLOWED',
  model_not_found: 'MODEL_UNKNOWN',
  upstream_auth_failed: 'UPSTREAM_AUTH',
  upstream_unreachable: 'UPSTREAM_FAULT',
  upstream_timeout: 'UPSTREAM_FAULT',
  upstream_bad_answer: 'UPSTREAM_FAULT',
  untranslatable_answer: 'UPSTREAM_FAULT',
  internal_error: 'UPSTREAM_FAULT',
  database_unavailable: 'UPSTREAM_FAULT',
  shutting_down: 'UPSTREAM_FAULT',
  busy_with_large_requests: 'UPSTREAM_FAULT',
  request_too_large: 'REQUEST_TOO_LARGE',
};

/** 404s for an address the API does not have, by the not-found handler's code (routes/not-found-hints.ts). */
const PATH_CAUSES: Readonly<Record<string, CauseCode>> = {
  doubled_v1: 'URL_DOUBLE_V1',
  doubled_version: 'URL_DOUBLE_V1',
  missing_v1: 'URL_MISSING_V1',
  wrong_address: 'URL_WRONG_PATH',
  not_found: 'URL_WRONG_PATH',
  unknown_method: 'URL_WRONG_PATH',
};

/** An upstream's own error status, relayed to the client as it was. */
function causeOfUpstreamStatus(status: number): CauseCode {
  if (status === 429) return 'RATE_LIMITED';
  if (status === 529) return 'UPSTREAM_OVERLOADED';
  if (status === 413) return 'REQUEST_TOO_LARGE';
  if (status === 403) return 'AUTH_FORBIDDEN';
  if (status >= 500) return 'UPSTREAM_FAULT';
  return 'REQUEST_REJECTED';
}


function keyCause(entry: RequestLogRecord, context: EntryContext, facts: string[]): CauseCode {
  const deleted = context.deletedKey;
  if (deleted) {
    facts.push(
      `The key ${deleted.hint} (${deleted.keyId}${deleted.name ? `, "${deleted.name}"` : ''}) of ${deleted.username} was deleted at ${formatTime(deleted.deletedAt, { seconds: true })}${deleted.deletedBy ? ` by ${deleted.deletedBy}` : ''}.`,
    );
    return 'KEY_DELETED';
  }
  facts.push(`No key of this service ever had the value sent (${entry.keyHint ?? 'masked'}, fingerprint ${entry.keyFingerprint ?? 'unknown'}).`);
  return 'KEY_UNKNOWN';
}


export function causeOfEntry(entry: RequestLogRecord, context: EntryContext = {}): CauseFinding {
  const facts: string[] = [];
  if (entry.errorMessage) facts.push(`The gateway answered ${entry.status} ${entry.errorCode}: ${entry.errorMessage}`);
  const upstream = entry.provider
    ? `Provider "${entry.provider}"${entry.upstreamStatus ? ` answered ${entry.upstreamStatus}` : ' gave no answer'}${entry.upstreamRequestId ? ` (its request id ${entry.upstreamRequestId})` : ''}${entry.attempts && entry.attempts > 1 ? ` after ${entry.attempts} attempts` : ''}.`
    : undefined;
  const cause = ((): CauseCode => {
    if (entry.outcome === 'client_aborted') return 'CLIENT_ABORTED';
    if (entry.outcome === 'shutdown_cut') {
      facts.push('The gateway was shutting down and cut the answer short.');
      return 'UPSTREAM_FAULT';
    }
    if (entry.outcome === 'upstream_cut') {
      facts.push('The upstream stopped in the middle of the answer.');
      return 'UPSTREAM_FAULT';
    }
    const code = entry.errorCode;
    if (code === 'invalid_api_key') return keyCause(entry, context, facts);
    if (code === 'malformed_api_key') return /quote/i.test(entry.errorMessage ?? '') ? 'KEY_QUOTES' : 'KEY_WHITESPACE';
    if (code && CODE_CAUSES[code]) return CODE_CAUSES[code];
    if (code && PATH_CAUSES[code]) {
      facts.push(`${entry.method ?? 'The request'} ${entry.path ?? ''} is not an address of this API.`);
      return PATH_CAUSES[code];
    }
    if (entry.status < 400) return 'OK';
    if (!code && entry.upstreamStatus && entry.upstreamStatus >= 400) return causeOfUpstreamStatus(entry.upstreamStatus);
    if (entry.status >= 500) return 'UPSTREAM_FAULT';
    if (entry.status === 413) return 'REQUEST_TOO_LARGE';
    return 'REQUEST_REJECTED';
  })();
  if (upstream) facts.push(upstream);
  if (context.ownerNow === null && entry.userId) facts.push('The key owner has since been deleted.');
  else if (context.ownerNow?.disabled && cause !== 'USER_DISABLED') facts.push(`The owner ${context.ownerNow.username} is disabled now.`);
  if (context.keyNow === null && entry.keyId && cause !== 'KEY_DELETED') facts.push('The key has since been deleted.');
  return { cause, facts };
}
