// How a key's limits look on the pages: the form fields (create and edit share them), a one-line
// summary for the keys table, and the budget standings with what is left.
import type { KeyLimits, UserLimits } from '../../limits/key-limits.ts';
import type { BudgetStanding } from '../../limits/quota-guard.ts';
import { formatCount, shortTime } from '../format.ts';
import { budgetAmount } from '../budget-amount.ts';
import { formatMicros } from '../../pricing/money.ts';
import { html } from '../html.ts';

const BUDGET_TEXT: Record<BudgetStanding['name'], string> = {
  tokensDay: 'tokens today',
  tokensMonth: 'tokens this month',
  requestsDay: 'requests today',
  requestsMonth: 'requests this month',
  costDay: 'cost today',
  costMonth: 'cost this month',
};

const numberField = (value: number | null) => (value === null ? '' : String(value));
const moneyField = (micros: number | null) => (micros === null ? '' : formatMicros(micros));

/**
 * The limit fields of a key form (or, with `kind: 'user'`, of a user: models and budgets only);
 * every one is optional. `limits` fills them for an edit.
 */
export function limitsFields(limits?: KeyLimits | UserLimits, kind: 'key' | 'user' = 'key') {
  const b = limits?.budgets;
  const key = limits && 'expiresAt' in limits ? limits : undefined;
  return html`<fieldset class="inline limits">
    <legend>Limits (optional, empty = none)</legend>
    ${kind === 'key' ? html`<label>Expires <input name="expires" placeholder="30d or 2027-01-31" value="${key?.expiresAt ?? ''}"></label>` : ''}
    <label>Models <input name="models" placeholder="comma-separated, e.g. demo" value="${limits?.models?.join(',') ?? ''}"></label>
    ${kind === 'key' ? html`<label>Requests per minute <input name="rateLimit" inputmode="numeric" value="${numberField(key?.rateLimit ?? null)}"></label>` : ''}
    <label>Tokens per day <input name="budgetTokensDay" inputmode="numeric" value="${numberField(b?.tokensDay ?? null)}"></label>
    <label>Tokens per month <input name="budgetTokensMonth" inputmode="numeric" value="${numberField(b?.tokensMonth ?? null)}"></label>
    <label>Requests per day <input name="budgetRequestsDay" inputmode="numeric" value="${numberField(b?.requestsDay ?? null)}"></label>
    <label>Requests per month <input name="budgetRequestsMonth" inputmode="numeric" value="${numberField(b?.requestsMonth ?? null)}"></label>
    <label>Cost per day <input name="budgetCostDay" inputmode="decimal" placeholder="e.g. 5 or 2.50" value="${moneyField(b?.costDay ?? null)}"></label>
    <label>Cost per month <input name="budgetCostMonth" inputmode="decimal" value="${moneyField(b?.costMonth ?? null)}"></label>
  </fieldset>`;
}

/** "expires …; models a, b; 10/min" and, per budget, "N of M tokens today left". */
export function limitsSummary(limits: KeyLimits | UserLimits, budgetStatus: BudgetStanding[], now: number) {
  const parts: string[] = [];
  if ('expiresAt' in limits && limits.expiresAt) parts.push(`${Date.parse(limits.expiresAt) <= now ? 'expired' : 'expires'} ${shortTime(limits.expiresAt)}`);
  if (limits.models) parts.push(`models: ${limits.models.join(', ')}`);
  if ('rateLimit' in limits && limits.rateLimit !== null) parts.push(`${formatCount(limits.rateLimit)} requests/min`);
  for (const s of budgetStatus) parts.push(`${budgetAmount(s.unit, s.remaining)} of ${budgetAmount(s.unit, s.limit)} ${BUDGET_TEXT[s.name]} left`);
  if (parts.length === 0) return html`<span class="muted">none</span>`;
  return html`${parts.map((p, i) => html`${i > 0 ? html`<br>` : ''}<span class="limit">${p}</span>`)}`;
}
