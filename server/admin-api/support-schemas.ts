// The support desk's documents in the operator API's OpenAPI description: a request's verdict, a
// key lookup, an account overview and the verdict over a support bundle.
const str = { type: 'string' } as const;
const nullableString = { type: ['string', 'null'] } as const;
const nullableInteger = { type: ['integer', 'null'] } as const;
const strings = { type: 'array', items: str } as const;

const failureCount = {
  type: 'object',
  properties: { cause: str, count: { type: 'integer' }, lastAt: { type: 'string', format: 'date-time' }, lastRequestId: nullableString },
} as const;

export const requestVerdictSchema = {
  type: 'object',
  description: 'What happened to one request and why, with the remedy for the operator and the one to send the user',
  properties: {
    requestId: str,
    at: { type: 'string', format: 'date-time' },
    status: { type: 'integer' },
    cause: { ...str, description: 'A cause code of the catalogue (KEY_DELETED, QUOTA_EXCEEDED, UPSTREAM_FAULT, …)' },
    summary: str,
    why: str,
    remedy: { ...str, description: "The operator's remedy" },
    userRemedy: { ...str, description: 'What to tell the user' },
    operatorCommands: strings,
    userCommands: strings,
    facts: strings,
    request: {
      type: 'object',
      properties: {
        method: nullableString,
        path: nullableString,
        protocol: nullableString,
        user: nullableString,
        keyId: nullableString,
        keyHint: nullableString,
        keyFingerprint: nullableString,
        model: nullableString,
        requestedModel: nullableString,
        errorCode: nullableString,
        provider: nullableString,
        upstreamStatus: nullableInteger,
        upstreamRequestId: nullableString,
        attempts: nullableInteger,
        latencyMs: { type: 'number' },
        sessionId: nullableString,
        outcome: nullableString,
        inputTokens: { type: 'integer' },
        outputTokens: { type: 'integer' },
      },
    },
  },
} as const;

export const keyFindSchema = {
  type: 'object',
  properties: {
    query: str,
    kind: { type: 'string', enum: ['key id', 'fingerprint', 'hint', 'key value'] },
    days: { type: 'integer' },
    keys: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          keyId: str,
          hint: str,
          name: nullableString,
          fingerprint: nullableString,
          owner: nullableString,
          state: { type: 'string', enum: ['active', 'expired', 'owner disabled', 'owner deleted', 'deleted'] },
          createdAt: str,
          deletedAt: nullableString,
          deletedBy: nullableString,
          limits: { anyOf: [{ $ref: 'KeyLimits#' }, { type: 'null' }] },
          lastUsedAt: nullableString,
          recentFailures: { type: 'array', items: failureCount },
        },
      },
    },
    refusedValues: {
      type: 'array',
      items: { type: 'object', properties: { hint: nullableString, fingerprint: str, requests: { type: 'integer' }, lastAt: str, lastRequestId: nullableString } },
    },
  },
} as const;

export const userOverviewSchema = {
  type: 'object',
  properties: {
    username: str,
    userId: str,
    isAdmin: { type: 'boolean' },
    disabled: { type: 'boolean' },
    createdAt: str,
    limits: { $ref: 'UserLimits#' },
    keys: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          keyId: str,
          hint: str,
          name: nullableString,
          state: { type: 'string', enum: ['active', 'expired', 'deleted'] },
          createdAt: str,
          lastUsedAt: nullableString,
          expiresAt: nullableString,
          deletedAt: nullableString,
        },
      },
    },
    recentFailures: { type: 'array', items: failureCount },
    recentRequests: { type: 'integer' },
    days: { type: 'integer' },
  },
} as const;

export const supportVerdictSchema = {
  type: 'object',
  properties: {
    verdict: {
      type: 'object',
      properties: { cause: str, summary: str, remedy: str, userRemedy: str, source: { type: 'string', enum: ['service', 'client'] }, facts: strings },
    },
    client: { type: 'object', properties: { cause: nullableString, observed: nullableString, createdAt: nullableString } },
    requests: { type: 'array', items: { $ref: 'RequestVerdict#' } },
    unknownRequestIds: strings,
  },
} as const;
