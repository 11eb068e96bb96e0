// Text rendering of the error-table rows for one status (gwctl explain).
import type { FilledRow } from '../../core/doctor/status-row.ts';

export function renderExplain(status: number, rows: FilledRow[]): string {
  const out = [`${status}: ${rows.length} case${rows.length === 1 ? '' : 's'} in the error table`, ''];
  for (const row of rows) {
    out.push(`${row.statuses.join(' / ')}  ${row.where}`);
    out.push(`  condition  ${row.condition}`);
    out.push(`  remedy     ${row.remedy}`);
    out.push(`  causes     ${row.causes.join(', ')}`);
    for (const command of row.commands) out.push(`    $ ${command}`);
    out.push('');
  }
  out.push(`To find which case applies on this machine: gwctl diagnose --status ${status}`);
  return out.join('\n') + '\n';
}
