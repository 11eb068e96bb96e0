// The key's own limits and its owner's at request time, all read from the cached auth context (no
// query): expiry (401), allowed models (403: the key's list within the owner's), and whose budgets
// a request counts against (the key's, and the owner's over all their keys).
import { causeEntry } from '../../core/causes/catalogue.ts';
import type { AuthContext } from '../auth/key-authenticator.ts';
import { GatewayError } from '../errors/gateway-error.ts';
import { hasAnyBudget } from './key-limits.ts';
import type { BudgetHolder } from './quota-guard.ts';

export function checkExpiry(auth: AuthContext, now: number): void {
  const expiresAt = auth.limits.expiresAt;
  if (expiresAt === null || Date.parse(expiresAt) > now) return;
  if (auth.signIn) {
    throw new GatewayError(401, 'access_token_expired', `This access token expired at ${expiresAt}. The client refreshes it with its refresh token (\`gwctl token\` prints a fresh one).`);
  }
  throw new GatewayError(
    401,
    'key_expired',
    `This API key expired at ${expiresAt}. ${causeEntry('KEY_EXPIRED').userRemedy}`,
  );
}

/** The models a key may use (its own list within its owner's), or undefined when it may use all. */
export function allowedModels(auth: AuthContext): string[] | undefined {
  const own = auth.limits.models;
  const owner = auth.userLimits.models;
  if (own && owner) return own.filter((m) => owner.includes(m));
  return own ?? owner ?? undefined;
}

/** 403 when the model (as asked, or the public name it resolved to) is not among the key's models. */
export function checkModelAllowed(auth: AuthContext, asked: string, resolved: string): void {
  const allowed = allowedModels(auth);
  if (!allowed || allowed.includes(asked) || allowed.includes(resolved)) return;
  throw new GatewayError(
    403,
    'model_not_allowed',
    allowed.length === 0
      ? `This API key may not use any model: its own list and its account's have none in common. ${causeEntry('MODEL_NOT_ALLOWED').userRemedy}`
      : `This API key may not use the model "${asked}". It is limited to: ${allowed.join(', ')}. ${causeEntry('MODEL_NOT_ALLOWED').userRemedy}`,
    { param: 'model' },
  );
}

/** Whether the key or its account has any budget at all (most have none: nothing to check or charge). */
export function hasBudgets(auth: AuthContext): boolean {
  return hasAnyBudget(auth.limits.budgets) || hasAnyBudget(auth.userLimits.budgets);
}

export function budgetHolders(auth: AuthContext): BudgetHolder[] {
  return [
    { subject: `key:${auth.keyId}`, label: 'This API key', budgets: auth.limits.budgets },
    { subject: `user:${auth.userId}`, label: "This key's account (all its keys together)", budgets: auth.userLimits.budgets },
  ];
}
