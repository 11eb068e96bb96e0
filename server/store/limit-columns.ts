// The budget and model columns that keys and users share, to and from their limit objects.
import type { Budgets } from '../limits/key-limits.ts';

export interface BudgetColumns {
  budget_tokens_day: number | string | null;
  budget_tokens_month: number | string | null;
  budget_requests_day: number | string | null;
  budget_requests_month: number | string | null;
  budget_cost_day: number | string | null;
  budget_cost_month: number | string | null;
}

const nullableNumber = (value: number | string | null) => (value === null ? null : Number(value));

export function budgetsFromColumns(row: BudgetColumns): Budgets {
  return {
    tokensDay: nullableNumber(row.budget_tokens_day),
    tokensMonth: nullableNumber(row.budget_tokens_month),
    requestsDay: nullableNumber(row.budget_requests_day),
    requestsMonth: nullableNumber(row.budget_requests_month),
    costDay: nullableNumber(row.budget_cost_day),
    costMonth: nullableNumber(row.budget_cost_month),
  };
}

export function budgetColumns(budgets: Budgets): BudgetColumns {
  return {
    budget_tokens_day: budgets.tokensDay,
    budget_tokens_month: budgets.tokensMonth,
    budget_requests_day: budgets.requestsDay,
    budget_requests_month: budgets.requestsMonth,
    budget_cost_day: budgets.costDay,
    budget_cost_month: budgets.costMonth,
  };
}

export const modelsFromColumn = (value: string | null): string[] | null => (value === null ? null : (JSON.parse(value) as string[]));
export const modelsColumn = (models: string[] | null): string | null => (models === null ? null : JSON.stringify(models));
