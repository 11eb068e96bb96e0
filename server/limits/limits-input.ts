// Turns what people type (CLI flags, form fields, JSON) into a LimitsPatch, with messages that say
// what is accepted. Shared by `gwctl admin key …`, the keys page and the JSON APIs.
import { BUDGET_NAMES, type Budgets, type LimitsPatch } from './key-limits.ts';
import { microsOf } from '../pricing/money.ts';

export class LimitsInputError extends RangeError {
  override readonly name = 'LimitsInputError';
  /** Web handlers answer a 4xx with the message as is. */
  readonly statusCode = 400;
}

const DAY_MS = 86_400_000;

/**
 * `30d` (days from now), `12h`, or an ISO date/time; a bare date is midnight UTC at the start of
 * that day, as ISO reads it. Empty or `never` removes the expiry.
 */
export function parseExpiry(text: string, now: number = Date.now()): string | null {
  const value = text.trim();
  if (value === '' || value === 'never' || value === 'none') return null;
  const relative = /^(\d{1,5})([dh])$/.exec(value);
  if (relative) return new Date(now + Number(relative[1]) * (relative[2] === 'd' ? DAY_MS : DAY_MS / 24)).toISOString();
  const at = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(at)) {
    throw new LimitsInputError(`Expiry "${value}" is neither a duration like 30d or 12h nor an ISO date such as 2027-01-31 or 2027-01-31T18:00:00Z.`);
  }
  return new Date(at).toISOString();
}

/** `a,b` or an array; empty removes the restriction. */
export function parseModels(value: string | string[]): string[] | null {
  const list = (Array.isArray(value) ? value : value.split(',')).map((m) => String(m).trim()).filter(Boolean);
  if (list.length === 0) return null;
  if (list.some((m) => m.length > 200)) throw new LimitsInputError('A model name has at most 200 characters.');
  return [...new Set(list)];
}

/** A whole number ≥ 1; empty, 0 or `none` removes the limit. */
export function parseLimitNumber(label: string, value: unknown): number | null {
  if (value === null || value === undefined || value === '' || value === 'none' || value === 0 || value === '0') return null;
  const n = typeof value === 'number' ? value : Number(String(value).trim());
  if (!Number.isSafeInteger(n) || n < 0) throw new LimitsInputError(`${label} must be a whole number (0 or empty for no limit); got "${String(value)}".`);
  return n;
}

/** An amount of money (2.50) in micro-units; empty, 0 or `none` removes the limit. */
export function parseMoneyLimit(label: string, value: unknown): number | null {
  if (value === null || value === undefined || value === '' || value === 'none' || value === 0 || value === '0') return null;
  const micros = microsOf(typeof value === 'string' ? value.trim() : value);
  if (micros === undefined) throw new LimitsInputError(`${label} must be an amount of money such as 5 or 2.50 (at most 6 decimals; 0 or empty for no limit); got "${String(value)}".`);
  return micros === 0 ? null : micros;
}

const BUDGET_LABELS: Record<keyof Budgets, string> = {
  tokensDay: 'Token budget per day',
  tokensMonth: 'Token budget per month',
  requestsDay: 'Request budget per day',
  requestsMonth: 'Request budget per month',
  costDay: 'Cost budget per day',
  costMonth: 'Cost budget per month',
};

/** The loosely typed fields of a form, flags or JSON body, each optional. */
export interface LimitsFields {
  expires?: unknown;
  models?: unknown;
  rateLimit?: unknown;
  budgetTokensDay?: unknown;
  budgetTokensMonth?: unknown;
  budgetRequestsDay?: unknown;
  budgetRequestsMonth?: unknown;
  budgetCostDay?: unknown;
  budgetCostMonth?: unknown;
}

const FIELD_OF: Record<keyof Budgets, keyof LimitsFields> = {
  tokensDay: 'budgetTokensDay',
  tokensMonth: 'budgetTokensMonth',
  requestsDay: 'budgetRequestsDay',
  requestsMonth: 'budgetRequestsMonth',
  costDay: 'budgetCostDay',
  costMonth: 'budgetCostMonth',
};

/** Only the fields present become part of the patch, so an update changes what it names. */
export function limitsPatchFrom(fields: LimitsFields, now: number = Date.now()): LimitsPatch {
  const patch: LimitsPatch = {};
  if (fields.expires !== undefined) patch.expiresAt = fields.expires === null ? null : parseExpiry(String(fields.expires), now);
  if (fields.models !== undefined) patch.models = fields.models === null ? null : parseModels(fields.models as string | string[]);
  if (fields.rateLimit !== undefined) patch.rateLimit = parseLimitNumber('Rate limit (requests per minute)', fields.rateLimit);
  const budgets: Partial<Budgets> = {};
  for (const name of BUDGET_NAMES) {
    const value = fields[FIELD_OF[name]];
    if (value !== undefined) budgets[name] = name.startsWith('cost') ? parseMoneyLimit(BUDGET_LABELS[name], value) : parseLimitNumber(BUDGET_LABELS[name], value);
  }
  if (Object.keys(budgets).length > 0) patch.budgets = budgets;
  return patch;
}

/** JSON-schema properties of the limits fields, for the JSON APIs. */
export const LIMITS_SCHEMA_PROPERTIES = {
  expires: { type: ['string', 'null'], description: 'ISO date/time, or a duration such as 30d or 12h; null or "" for none' },
  models: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'string' }, { type: 'null' }], description: 'Allowed models; null or empty for all' },
  rateLimit: { type: ['integer', 'null'], minimum: 0, description: 'Requests per minute for this key; null or 0 for the default' },
  budgetTokensDay: { type: ['integer', 'null'], minimum: 0 },
  budgetTokensMonth: { type: ['integer', 'null'], minimum: 0 },
  budgetRequestsDay: { type: ['integer', 'null'], minimum: 0 },
  budgetRequestsMonth: { type: ['integer', 'null'], minimum: 0 },
  budgetCostDay: { type: ['number', 'string', 'null'], description: 'Money per UTC day in the price table\'s currency, e.g. 5 or 2.50; null or 0 for none' },
  budgetCostMonth: { type: ['number', 'string', 'null'], description: 'Money per UTC month; null or 0 for none' },
} as const;
