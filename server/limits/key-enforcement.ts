// The key's own limits at request time, all read from the cached auth context (no query): expiry
// (401), allowed models (403), and whose budgets a request counts against.
import type { AuthContext } from '../auth/key-authenticator.ts';
import { GatewayError } from '../errors/gateway-error.ts';
import type { BudgetHolder } from './quota-guard.ts';

export function checkExpiry(auth: AuthContext, now: number): void {
  const expiresAt = auth.limits.expiresAt;
  if (expiresAt === null || Date.parse(expiresAt) > now) return;
  throw new GatewayError(
    401,
    'key_expired',
    `This API key expired at ${expiresAt}. The key owner can set a later expiry on the keys page, or create a new key.`,
  );
}

/** The models a key may use, or undefined when it may use all. */
export function allowedModels(auth: AuthContext): string[] | undefined {
  return auth.limits.models ?? undefined;
}

/** 403 when the model (as asked, or the public name it resolved to) is not among the key's models. */
export function checkModelAllowed(auth: AuthContext, asked: string, resolved: string): void {
  const allowed = allowedModels(auth);
  if (!allowed || allowed.includes(asked) || allowed.includes(resolved)) return;
  throw new GatewayError(
    403,
    'model_not_allowed',
    `This API key may not use the model "${asked}". It is limited to: ${allowed.join(', ')}. The key owner can change that on the keys page.`,
    { param: 'model' },
  );
}

export function budgetHolders(auth: AuthContext): BudgetHolder[] {
  return [{ subject: `key:${auth.keyId}`, label: 'This API key', budgets: auth.limits.budgets }];
}
