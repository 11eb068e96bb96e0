// The budgets of a person's keys, and of their account (all keys together, set by an operator), with
// what is used and left in the current period (for /usage).
import type { GatewayDeps } from '../../gateway-deps.ts';
import { hasAnyBudget } from '../../limits/key-limits.ts';
import { standings, type BudgetStanding } from '../../limits/quota-guard.ts';
import type { ApiKeyRecord } from '../../store/keys-repo.ts';
import type { User } from '../../store/users-repo.ts';
import { shortTime } from '../format.ts';
import { budgetAmount } from '../budget-amount.ts';
import { html } from '../html.ts';
import { clipped } from '../table-cells.ts';

const PERIOD_TEXT: Record<BudgetStanding['name'], string> = {
  tokensDay: 'Tokens today',
  tokensMonth: 'Tokens this month',
  requestsDay: 'Requests today',
  requestsMonth: 'Requests this month',
  costDay: 'Cost today',
  costMonth: 'Cost this month',
};

export async function budgetsSection(deps: GatewayDeps, keys: ApiKeyRecord[], user?: Pick<User, 'id' | 'limits'>) {
  const now = (deps.now ?? Date.now)();
  const rows: Array<{ key?: ApiKeyRecord; standing: BudgetStanding }> = [];
  if (user?.limits && hasAnyBudget(user.limits.budgets)) {
    for (const standing of await standings(deps.budgets, { subject: `user:${user.id}`, budgets: user.limits.budgets }, now)) rows.push({ standing });
  }
  for (const key of keys.filter((k) => hasAnyBudget(k.limits.budgets))) {
    for (const standing of await standings(deps.budgets, { subject: `key:${key.id}`, budgets: key.limits.budgets }, now)) rows.push({ key, standing });
  }
  if (rows.length === 0) return '';
  return html`<section class="card" id="budgets"><h2>Budgets</h2>
    <p class="muted">A key whose budget is used up gets 429 until the period resets (00:00 UTC, or the first of the month).</p>
    <div class="table-wrap"><table>
      <thead><tr><th>Key</th><th>Budget</th><th class="num">Used</th><th class="num">Left</th><th class="num">Limit</th><th>Resets</th></tr></thead>
      <tbody>${rows.map(
        ({ key, standing: s }) =>
          html`<tr><td>${key ? html`${clipped(key.name ?? '(no name)')} <code>${key.hint}</code>` : 'Your account (all keys)'}</td><td>${PERIOD_TEXT[s.name]}</td><td class="num">${budgetAmount(s.unit, s.used)}</td><td class="num">${budgetAmount(s.unit, s.remaining)}</td><td class="num">${budgetAmount(s.unit, s.limit)}</td><td>${shortTime(s.resetsAt)}</td></tr>`,
      )}</tbody>
    </table></div></section>`;
}
