// JSON schemas of the operator API: they validate requests, shape responses (fields not listed are
// never sent, so a key value cannot leak through a record) and become the OpenAPI document.
// Loads the route-schema fields the OpenAPI generator adds (tags, summary, description).
import { keyFindSchema, requestVerdictSchema, supportVerdictSchema, userOverviewSchema } from './support-schemas.ts';
import type {} from '@fastify/swagger';
import { LIMITS_SCHEMA_PROPERTIES } from '../limits/limits-input.ts';
import { COST_VIEW_PROPERTIES } from '../usage/cost-view.ts';

const nullableInteger = { type: ['integer', 'null'] } as const;
/** Money budgets are micro-units (1e-6) of the price table's currency: 2500000 is 2.50. */
const costBudgets = {
  costDay: { type: ['integer', 'null'], minimum: 0, description: 'Money per UTC day in micro-units (1e-6) of the price table currency' },
  costMonth: { type: ['integer', 'null'], minimum: 0, description: 'Money per UTC month in micro-units (1e-6) of the price table currency' },
} as const;
const budgets = {
  type: 'object',
  properties: { tokensDay: nullableInteger, tokensMonth: nullableInteger, requestsDay: nullableInteger, requestsMonth: nullableInteger, ...costBudgets },
} as const;
const models = { type: ['array', 'null'], items: { type: 'string' } } as const;

export const userLimitsSchema = { type: 'object', properties: { models, budgets } } as const;

export const keyLimitsSchema = {
  type: 'object',
  properties: { expiresAt: { type: ['string', 'null'], format: 'date-time' }, models, rateLimit: nullableInteger, budgets },
} as const;

export const userSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    username: { type: 'string' },
    isAdmin: { type: 'boolean', description: 'The role is operator' },
    role: { type: 'string', enum: ['operator', 'viewer', 'member'], description: 'operator: changes anything; viewer: reads the operator pages and API, changes nothing; member: uses the gateway' },
    disabled: { type: 'boolean' },
    createdAt: { type: 'string', format: 'date-time' },
    limits: userLimitsSchema,
  },
} as const;

export const keySchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    userId: { type: 'string' },
    user: { type: 'string', description: 'The owner\'s user name' },
    name: { type: ['string', 'null'] },
    hint: { type: 'string', description: 'The masked key (sk-…a1b2)' },
    createdAt: { type: 'string', format: 'date-time' },
    lastUsedAt: { type: ['string', 'null'] },
    limits: keyLimitsSchema,
    budgetStatus: {
      type: 'array',
      description: 'Per budget of the key: used and left in the current period, and when it resets',
      items: {
        type: 'object',
        properties: { name: { type: 'string' }, unit: { type: 'string', enum: ['requests', 'tokens', 'cost'], description: 'cost: micro-units (1e-6) of the price table currency' }, limit: { type: 'integer' }, used: { type: 'integer' }, remaining: { type: 'integer' }, resetsAt: { type: 'string', format: 'date-time' } },
      },
    },
  },
} as const;

export const auditEntrySchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    at: { type: 'string', format: 'date-time' },
    actor: { type: 'string' },
    address: { type: 'string' },
    action: { type: 'string' },
    target: { type: 'string' },
    details: { type: 'object', additionalProperties: true },
  },
} as const;

export const createdKeySchema = {
  type: 'object',
  properties: { ...keySchema.properties, key: { type: 'string', description: 'The full key: returned by this call only, never again' } },
} as const;

export const usageRowSchema = {
  type: 'object',
  properties: {
    period: { type: 'string', description: 'The bucket: an hour (2026-11-01T08:00Z) or, with by=day, a day (2026-11-01)' },
    user: { type: 'string' },
    userId: { type: 'string' },
    keyId: { type: 'string', description: 'Empty for the web apps' },
    model: { type: 'string' },
    requests: { type: 'integer' },
    inputTokens: { type: 'integer' },
    outputTokens: { type: 'integer' },
    errors: { type: 'integer' },
    ...COST_VIEW_PROPERTIES,
    estimatedRequests: { type: 'integer', description: 'Requests whose tokens (and cost) were estimated: a stream cut before its usage report' },
  },
} as const;

export const errorSchema = {
  type: 'object',
  properties: {
    error: {
      type: 'object',
      properties: { message: { type: 'string' }, type: { type: 'string' }, code: { type: ['string', 'null'] }, param: { type: ['string', 'null'] } },
    },
  },
} as const;

export const limitsBodyProperties = LIMITS_SCHEMA_PROPERTIES;

export const userLimitsBodyProperties = (() => {
  const { expires: _expires, rateLimit: _rateLimit, ...rest } = LIMITS_SCHEMA_PROPERTIES;
  return rest;
})();

/** Every authenticated route answers these too. */
export const authErrors = { 401: { description: 'Missing, unknown or revoked operator token', ...errorSchema } } as const;

/**
 * The named schemas of the OpenAPI document (components.schemas), shared by the routes through
 * `{ $ref: 'Name#' }`: one shape per resource, in answers and, for limits, in requests too.
 */
export const NAMED_SCHEMAS = {
  UserLimits: userLimitsSchema,
  KeyLimits: keyLimitsSchema,
  User: { ...userSchema, properties: { ...userSchema.properties, limits: { $ref: 'UserLimits#' } } },
  Key: { ...keySchema, properties: { ...keySchema.properties, limits: { $ref: 'KeyLimits#' } } },
  CreatedKey: { ...createdKeySchema, properties: { ...createdKeySchema.properties, limits: { $ref: 'KeyLimits#' } } },
  AuditEntry: auditEntrySchema,
  UsageRow: usageRowSchema,
  Error: errorSchema,
  RequestVerdict: requestVerdictSchema,
  KeyFind: keyFindSchema,
  UserOverview: userOverviewSchema,
  SupportVerdict: supportVerdictSchema,
} as const;

export const ref = (name: keyof typeof NAMED_SCHEMAS) => ({ $ref: `${name}#` }) as const;

/**
 * Limits as answers show them (`limits: {expiresAt, models, rateLimit, budgets: {tokensDay, …}}`),
 * accepted in requests as well; the flat fields (`budgetTokensDay`, …) stay accepted.
 */
const nestedBudgets = {
  type: 'object',
  additionalProperties: false,
  properties: { tokensDay: nullableInteger, tokensMonth: nullableInteger, requestsDay: nullableInteger, requestsMonth: nullableInteger, ...costBudgets },
} as const;
export const keyLimitsInput = {
  type: 'object',
  additionalProperties: false,
  description: 'The same shape as `limits` in answers; fields not sent stay, null removes one',
  properties: { expiresAt: { type: ['string', 'null'] }, models, rateLimit: nullableInteger, budgets: nestedBudgets },
} as const;
export const userLimitsInput = {
  type: 'object',
  additionalProperties: false,
  description: 'The same shape as `limits` in answers; fields not sent stay, null removes one',
  properties: { models, budgets: nestedBudgets },
} as const;
