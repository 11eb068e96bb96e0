// Classifies the status the user saw with the error table, and points at the check that explains
// it when there is one (it runs last, so it agrees with the verdict's root cause).
import { CAUSE_CODES } from '../cause-codes.ts';
import { outcome } from '../check-result.ts';
import type { Check, CheckResult } from '../check.ts';
import type { DiagnoseContext } from '../diagnose-context.ts';
import { GENERIC_CAUSE_BY_STATUS } from '../status-causes.ts';
import { statusRows } from '../status-row.ts';

const CLASS = {
  400: 'request refused',
  401: 'authentication',
  403: 'authentication',
  404: 'address or model',
  413: 'request too large',
  429: 'quota or rate limit',
  500: 'service or upstream failure',
  502: 'proxy or upstream failure',
  503: 'proxy or upstream failure',
  504: 'proxy or upstream timeout',
  529: 'upstream overloaded',
} as const;

/**
 * The first failing check is the diagnosis' root cause, and what the user saw follows from it (a
 * pinned address leads to a 404, a dead proxy upstream to a 502), so it explains the status; only
 * when nothing fails does a warning whose cause the error table names for the status explain it.
 */
function explainedBy(earlier: readonly CheckResult[], causes: Set<string>): CheckResult | undefined {
  return earlier.find((r) => r.status === 'fail' && r.cause && r.cause !== 'OK') ?? earlier.find((r) => r.status === 'warn' && r.cause && causes.has(r.cause));
}

export const statusClassify: Check<DiagnoseContext> = {
  id: 'status.classify',
  async run(ctx, earlier) {
    const status = ctx.status;
    if (status === undefined) return outcome.skip('no status given (--status N)');
    const rows = statusRows.forStatus(status, ctx.vars);
    const kind = CLASS[status as keyof typeof CLASS] ?? 'other';
    const table = rows.map((r) => `${r.where}: ${r.condition}`).join(' | ');
    const found = explainedBy(earlier, new Set(rows.flatMap((r) => r.causes)));
    if (found) {
      return outcome.fail(found.cause!, `${status} (${kind}); error table: ${table}. Explained by ${found.id}: ${CAUSE_CODES[found.cause!]}`, found.remedy ?? rows[0]!.remedy, found.commands);
    }
    const generic = GENERIC_CAUSE_BY_STATUS[status] ?? 'UPSTREAM_FAULT';
    return outcome.warn(generic, `${status} (${kind}); error table: ${table}. No check explains it`, rows.map((r) => r.remedy).join('; '), [...new Set(rows.flatMap((r) => r.commands))]);
  },
};
