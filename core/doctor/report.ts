// The document every checking command emits with --json: {"schemaVersion":1,"ok","checks":[…]}.
import type { CheckResult } from './check.ts';

export interface DoctorReport {
  schemaVersion: 1;
  /** True when no check failed (warnings allowed). */
  ok: boolean;
  checks: CheckResult[];
}

export function toReport(results: CheckResult[]): DoctorReport {
  return {
    schemaVersion: 1,
    ok: results.every((r) => r.status !== 'fail'),
    checks: results.map(({ id, status, cause, observed, remedy, commands }) => ({ id, status, cause, observed, remedy, commands })),
  };
}
