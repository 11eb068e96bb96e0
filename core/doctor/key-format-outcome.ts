// The outcome of the key lints for one variable (used by verify and diagnose alike).
import { causeEntry } from '../causes/catalogue.ts';
import { maskCredential } from './mask-credential.ts';
import { outcome } from './check-result.ts';
import type { CheckOutcome } from './check.ts';
import type { KeyFinding } from './key-lint.ts';

export function keyFormatOutcome(findings: KeyFinding[], variable: string, value: string): CheckOutcome {
  const shown = `${variable} (${maskCredential(value)})`;
  const fail = findings.find((f) => f.severity === 'fail');
  const details = findings.map((f) => f.detail).join('; ');
  const fix = `read -rs ${variable} && export ${variable}   # paste the bare key, no quotes or spaces`;
  if (fail) {
    return outcome.fail(fail.cause, `${shown} ${details}`, causeEntry(fail.cause).userRemedy, [fix, 'gwctl verify']);
  }
  const warn = findings.find((f) => f.severity === 'warn');
  if (warn) return outcome.warn(warn.cause, `${shown} ${details}`, causeEntry(warn.cause).userRemedy, ['gwctl verify']);
  return outcome.pass(`${shown}: no spaces, line breaks or quotes; starts with sk-`);
}
