// Spec 4.4 check order, step 4: classify the status the user saw with the spec 7 rows, and point at
// the earlier check that explains it when there is one.
import { CAUSE_CODES } from '../cause-codes.ts';
import { outcome } from '../check-result.ts';
import type { Check, CheckResult } from '../check.ts';
import type { DiagnoseContext } from '../diagnose-context.ts';
import { statusRows } from '../status-row.ts';

const GENERIC = { 401: 'KEY_REJECTED', 403: 'AUTH_FORBIDDEN', 404: 'URL_NOT_FOUND', 429: 'RATE_LIMITED', 502: 'UPSTREAM_FAULT', 503: 'UPSTREAM_FAULT' } as const;
const CLASS = { 401: 'authentication', 403: 'authentication', 404: 'address', 429: 'quota or rate limit', 502: 'proxy or upstream failure', 503: 'proxy or upstream failure' } as const;

function explainedBy(earlier: readonly CheckResult[], causes: Set<string>): CheckResult | undefined {
  return earlier.find((r) => r.status === 'fail' && r.cause && causes.has(r.cause)) ?? earlier.find((r) => r.status === 'warn' && r.cause && causes.has(r.cause));
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
      return outcome.fail(found.cause!, `${status} (${kind}); spec 7: ${table}. Explained by ${found.id}: ${CAUSE_CODES[found.cause!]}`, found.remedy ?? rows[0]!.remedy, found.commands);
    }
    const generic = GENERIC[status as keyof typeof GENERIC] ?? 'UPSTREAM_FAULT';
    const next = status === 502 || status === 503 ? 'the direct request below tells a proxy fault from an upstream fault' : 'the direct request below checks the address and key';
    return outcome.warn(generic, `${status} (${kind}); spec 7: ${table}. No check so far explains it; ${next}`, rows.map((r) => r.remedy).join('; '), [...new Set(rows.flatMap((r) => r.commands))]);
  },
};
