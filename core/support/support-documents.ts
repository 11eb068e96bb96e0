// The support desk's documents as they travel: `gwctl admin request|key find|user show|support
// --json`, the operator API's answers, and what the TUI's Support screen reads back. The server
// builds them (server/support/), every reader uses these types.
import type { CauseCode } from '../causes/catalogue.ts';

/** What happened to one request and why, with the remedy for the operator and the one to send the user. */
export interface RequestVerdict {
  requestId: string;
  /** ISO time the request ended. */
  at: string;
  status: number;
  cause: CauseCode;
  summary: string;
  why: string;
  /** What the operator does. */
  remedy: string;
  /** What to tell the user. */
  userRemedy: string;
  operatorCommands: string[];
  userCommands: string[];
  facts: string[];
  request: {
    method: string | null;
    path: string | null;
    protocol: string | null;
    user: string | null;
    keyId: string | null;
    keyHint: string | null;
    keyFingerprint: string | null;
    model: string | null;
    requestedModel: string | null;
    errorCode: string | null;
    provider: string | null;
    upstreamStatus: number | null;
    upstreamRequestId: string | null;
    attempts: number | null;
    latencyMs: number;
    sessionId: string | null;
    outcome: string | null;
    inputTokens: number;
    outputTokens: number;
  };
}

export interface FailureCount {
  cause: CauseCode;
  count: number;
  /** ISO time of the newest one. */
  lastAt: string;
  /** The newest one's request id, to look it up with `gwctl admin request`. */
  lastRequestId: string | null;
}

export type KeyState = 'active' | 'expired' | 'owner disabled' | 'owner deleted' | 'deleted';

/** A key's limits as documents carry them (the gateway's KeyLimits). */
export interface KeyLimitsDocument {
  expiresAt: string | null;
  models: string[] | null;
  rateLimit: number | null;
  /** Budget name (tokensDay, requestsMonth, …) to its limit, null where none is set. */
  budgets: object;
}

export interface FoundKey {
  keyId: string;
  hint: string;
  name: string | null;
  fingerprint: string | null;
  owner: string | null;
  state: KeyState;
  createdAt: string;
  /** Deleted keys: when and by whom (the audit log's actor). */
  deletedAt: string | null;
  deletedBy: string | null;
  limits: KeyLimitsDocument | null;
  lastUsedAt: string | null;
  recentFailures: FailureCount[];
}

/** A value that matched no key when it was sent: only its hint and fingerprint are known. */
export interface RefusedValue {
  hint: string | null;
  fingerprint: string;
  requests: number;
  lastAt: string;
  lastRequestId: string | null;
}

export interface KeyFindResult {
  query: string;
  /** How the query was read. */
  kind: 'key id' | 'fingerprint' | 'hint' | 'key value';
  keys: FoundKey[];
  refusedValues: RefusedValue[];
  /** Days of the request log read for failures. */
  days: number;
}

/** One verdict from both halves of a failure: the user's support bundle and the request log. */
export interface SupportVerdict {
  verdict: {
    cause: CauseCode;
    summary: string;
    remedy: string;
    userRemedy: string;
    /** Which half decided: what the gateway recorded, or the user's diagnosis. */
    source: 'service' | 'client';
    facts: string[];
  };
  client: { cause: CauseCode | null; observed: string | null; createdAt: string | null };
  requests: RequestVerdict[];
  /** Request ids of the bundle this gateway has no record of. */
  unknownRequestIds: string[];
}
