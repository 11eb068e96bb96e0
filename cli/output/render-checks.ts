// Text rendering of check results: one line per passed or skipped check; cause, observation, remedy
// and commands for warnings and failures. The same results are emitted as JSON with --json.
import type { CheckResult } from '../../core/doctor/check.ts';
import type { Verdict } from '../../core/doctor/verdict.ts';

const LABEL = { pass: 'PASS', warn: 'WARN', fail: 'FAIL', skip: 'SKIP' } as const;

export const renderChecks = {
  width: 22,

  one(result: CheckResult): string {
    const head = `${LABEL[result.status]}  ${result.id.padEnd(renderChecks.width)}`;
    if (result.status === 'pass' || result.status === 'skip') return `${head}${result.observed}\n`;
    const lines = [`${head}${result.cause}`, `      observed  ${result.observed}`];
    if (result.remedy) lines.push(`      remedy    ${result.remedy}`);
    for (const command of result.commands) lines.push(`        $ ${command}`);
    return lines.join('\n') + '\n';
  },

  summary(results: CheckResult[]): string {
    const count = (s: CheckResult['status']) => results.filter((r) => r.status === s).length;
    const failed = count('fail');
    const verdict = failed === 0 ? 'OK' : 'FAILED';
    return `${verdict}: ${count('pass')} passed, ${count('warn')} warning${count('warn') === 1 ? '' : 's'}, ${failed} failed, ${count('skip')} skipped\n`;
  },

  /** The one root cause of a diagnosis, its remedy and the checks that agree with it. */
  verdict(verdict: Verdict): string {
    const lines = [`VERDICT ${verdict.cause}${verdict.check ? ` (from ${verdict.check})` : ''}`, `      observed  ${verdict.observed}`];
    if (verdict.remedy) lines.push(`      remedy    ${verdict.remedy}`);
    for (const command of verdict.commands) lines.push(`        $ ${command}`);
    if (verdict.evidence.length) lines.push(`      also      ${verdict.evidence.join(', ')}`);
    return lines.join('\n') + '\n';
  },

  /** A short progress line for stderr while --json output is being prepared. */
  progress(result: CheckResult): string {
    return `gwctl: ${result.id} ${result.status}${result.cause && result.cause !== 'OK' ? ` ${result.cause}` : ''}\n`;
  },
};
