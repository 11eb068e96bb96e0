// The limit flags of `gwctl admin key create|update` and `gwctl admin user set`: every one optional;
// on update only the flags given change, and an empty value (or 0 for numbers, `never` for --expires)
// removes that limit.
import type { Argv } from 'yargs';
import type { KeyLimits, UserLimits } from '../../../server/limits/key-limits.ts';
import type { LimitsFields } from '../../../server/limits/limits-input.ts';
import { formatMicros } from '../../../server/pricing/money.ts';

export interface LimitArgs {
  expires?: string;
  models?: string;
  rateLimit?: string;
  budgetTokensDay?: string;
  budgetTokensMonth?: string;
  budgetRequestsDay?: string;
  budgetRequestsMonth?: string;
  budgetCostDay?: string;
  budgetCostMonth?: string;
}

export function withLimitOptions<T>(yargs: Argv<T>): Argv<T & LimitArgs> {
  // Strings, so "" and "none" can remove a limit and the store says what is wrong with a value.
  return withUserLimitOptions(
    yargs
      .option('expires', { type: 'string', describe: 'Expiry: a duration (30d, 12h) or an ISO date/time (2027-01-31, 2027-01-31T18:00:00Z); "never" removes it' })
      .option('rate-limit', { type: 'string', describe: 'Requests per minute for this key instead of the gateway default; 0 removes it' }),
    'this key',
  ) as Argv<T & LimitArgs>;
}

/** Models and budgets: what keys and users both have. */
export function withUserLimitOptions<T>(yargs: Argv<T>, whose = "all of the user's keys together"): Argv<T & LimitArgs> {
  return yargs
    .option('models', { type: 'string', describe: `Allowed models for ${whose}, comma-separated (others get 403); "" allows all` })
    .option('budget-tokens-day', { type: 'string', describe: `Tokens per UTC day for ${whose} (429 once used up); 0 removes it` })
    .option('budget-tokens-month', { type: 'string', describe: 'Tokens per UTC month; 0 removes it' })
    .option('budget-requests-day', { type: 'string', describe: 'Requests per UTC day; 0 removes it' })
    .option('budget-requests-month', { type: 'string', describe: 'Requests per UTC month; 0 removes it' })
    .option('budget-cost-day', { type: 'string', describe: "Money per UTC day in the price table's currency, e.g. 5 or 2.50; 0 removes it" })
    .option('budget-cost-month', { type: 'string', describe: 'Money per UTC month; 0 removes it' }) as Argv<T & LimitArgs>;
}

export function limitFieldsOf(args: LimitArgs): LimitsFields {
  const { expires, models, rateLimit, budgetTokensDay, budgetTokensMonth, budgetRequestsDay, budgetRequestsMonth, budgetCostDay, budgetCostMonth } = args;
  const fields: LimitsFields = { expires, models, rateLimit, budgetTokensDay, budgetTokensMonth, budgetRequestsDay, budgetRequestsMonth, budgetCostDay, budgetCostMonth };
  for (const name of Object.keys(fields) as Array<keyof LimitsFields>) if (fields[name] === undefined) delete fields[name];
  return fields;
}

/** One line per limit set, for the text output; "no limits" when there are none. */
export function describeLimits(limits: KeyLimits | UserLimits): string {
  const parts: string[] = [];
  if ('expiresAt' in limits && limits.expiresAt) parts.push(`expires ${limits.expiresAt}`);
  if (limits.models) parts.push(`models ${limits.models.join(',')}`);
  if ('rateLimit' in limits && limits.rateLimit !== null) parts.push(`${limits.rateLimit}/min`);
  const b = limits.budgets;
  if (b.tokensDay !== null) parts.push(`${b.tokensDay} tokens/day`);
  if (b.tokensMonth !== null) parts.push(`${b.tokensMonth} tokens/month`);
  if (b.requestsDay !== null) parts.push(`${b.requestsDay} requests/day`);
  if (b.requestsMonth !== null) parts.push(`${b.requestsMonth} requests/month`);
  if (b.costDay !== null) parts.push(`${formatMicros(b.costDay)}/day`);
  if (b.costMonth !== null) parts.push(`${formatMicros(b.costMonth)}/month`);
  return parts.length > 0 ? parts.join('; ') : 'no limits';
}
