// How a key's limits look on the pages: the form fields (create and edit share them), a one-line
// summary for the keys table, and the budget standings with what is left.
import type { KeyLimits } from '../../limits/key-limits.ts';
import type { BudgetStanding } from '../../limits/quota-guard.ts';
import { formatCount, shortTime } from '../format.ts';
import { html } from '../html.ts';

const BUDGET_TEXT: Record<BudgetStanding['name'], string> = {
  tokensDay: 'tokens today',
  tokensMonth: 'tokens this month',
  requestsDay: 'requests today',
  requestsMonth: 'requests this month',
};

const numberField = (value: number | null) => (value === null ? '' : String(value));

/** The limit fields of a key form; every one is optional. `limits` fills them for an edit. */
export function limitsFields(limits?: KeyLimits) {
  const b = limits?.budgets;
  return html`<fieldset class="inline limits">
    <legend>Limits (optional, empty = none)</legend>
    <label>Expires <input name="expires" placeholder="30d or 2027-01-31" value="${limits?.expiresAt ?? ''}"></label>
    <label>Models <input name="models" placeholder="comma-separated, e.g. demo" value="${limits?.models?.join(',') ?? ''}"></label>
    <label>Requests per minute <input name="rateLimit" inputmode="numeric" value="${numberField(limits?.rateLimit ?? null)}"></label>
    <label>Tokens per day <input name="budgetTokensDay" inputmode="numeric" value="${numberField(b?.tokensDay ?? null)}"></label>
    <label>Tokens per month <input name="budgetTokensMonth" inputmode="numeric" value="${numberField(b?.tokensMonth ?? null)}"></label>
    <label>Requests per day <input name="budgetRequestsDay" inputmode="numeric" value="${numberField(b?.requestsDay ?? null)}"></label>
    <label>Requests per month <input name="budgetRequestsMonth" inputmode="numeric" value="${numberField(b?.requestsMonth ?? null)}"></label>
  </fieldset>`;
}

/** "expires …; models a, b; 10/min" and, per budget, "N of M tokens today left". */
export function limitsSummary(limits: KeyLimits, budgetStatus: BudgetStanding[], now: number) {
  const parts: string[] = [];
  if (limits.expiresAt) parts.push(`${Date.parse(limits.expiresAt) <= now ? 'expired' : 'expires'} ${shortTime(limits.expiresAt)}`);
  if (limits.models) parts.push(`models: ${limits.models.join(', ')}`);
  if (limits.rateLimit !== null) parts.push(`${formatCount(limits.rateLimit)} requests/min`);
  for (const s of budgetStatus) parts.push(`${formatCount(s.remaining)} of ${formatCount(s.limit)} ${BUDGET_TEXT[s.name]} left`);
  if (parts.length === 0) return html`<span class="muted">none</span>`;
  return html`${parts.map((p, i) => html`${i > 0 ? html`<br>` : ''}<span class="limit">${p}</span>`)}`;
}
