// What an owner or operator may restrict on a key: when it stops working, which models it reaches,
// its own rate limit, and token, request and money budgets per UTC day and month. Every field is
// optional; null means "no limit of this kind". Money budgets are micro-units of the price table's
// currency.

export interface Budgets {
  tokensDay: number | null;
  tokensMonth: number | null;
  requestsDay: number | null;
  requestsMonth: number | null;
  costDay: number | null;
  costMonth: number | null;
}

export interface KeyLimits {
  /** ISO-8601 instant after which the key answers 401. */
  expiresAt: string | null;
  /** Public model names the key may use; null = every model. */
  models: string[] | null;
  /** Requests per minute for this key, instead of the gateway's default. */
  rateLimit: number | null;
  budgets: Budgets;
}

export const BUDGET_NAMES = ['tokensDay', 'tokensMonth', 'requestsDay', 'requestsMonth', 'costDay', 'costMonth'] as const;
export type BudgetName = (typeof BUDGET_NAMES)[number];

export const NO_BUDGETS: Budgets = { tokensDay: null, tokensMonth: null, requestsDay: null, requestsMonth: null, costDay: null, costMonth: null };
export const NO_LIMITS: KeyLimits = { expiresAt: null, models: null, rateLimit: null, budgets: NO_BUDGETS };

/** What an operator may set on a user: an upper bound for all the user's keys. */
export interface UserLimits {
  models: string[] | null;
  budgets: Budgets;
}

export const NO_USER_LIMITS: UserLimits = { models: null, budgets: NO_BUDGETS };

/** A change to a key's limits: absent fields stay as they are, null removes a limit. */
export interface LimitsPatch {
  expiresAt?: string | null;
  models?: string[] | null;
  rateLimit?: number | null;
  budgets?: Partial<Budgets>;
}

export function applyPatch(limits: KeyLimits, patch: LimitsPatch): KeyLimits {
  return {
    expiresAt: patch.expiresAt !== undefined ? patch.expiresAt : limits.expiresAt,
    models: patch.models !== undefined ? patch.models : limits.models,
    rateLimit: patch.rateLimit !== undefined ? patch.rateLimit : limits.rateLimit,
    budgets: { ...limits.budgets, ...Object.fromEntries(Object.entries(patch.budgets ?? {}).filter(([, v]) => v !== undefined)) },
  };
}

export function applyUserPatch(limits: UserLimits, patch: Pick<LimitsPatch, 'models' | 'budgets'>): UserLimits {
  const { models, budgets } = applyPatch({ ...NO_LIMITS, ...limits }, { models: patch.models, budgets: patch.budgets });
  return { models, budgets };
}

export function hasAnyBudget(budgets: Budgets): boolean {
  return BUDGET_NAMES.some((name) => budgets[name] !== null);
}
