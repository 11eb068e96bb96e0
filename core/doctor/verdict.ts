// The one root cause of a diagnosis: the first failing check in the diagnosis order (local causes
// come before what they lead to over the network), with the other failing checks that agree as its
// evidence chain. status.classify only repeats another check's cause, so it is never the root.
import type { CauseCode } from './cause-codes.ts';
import type { CheckResult } from './check.ts';

export interface Verdict {
  cause: CauseCode;
  /** The check that names the root cause; null when nothing failed. */
  check: string | null;
  observed: string;
  remedy: string | null;
  commands: string[];
  /** Other failing (then warning) checks, `id CAUSE`, in order. */
  evidence: string[];
}

export function verdictOf(checks: readonly CheckResult[], context: { clientExitCode?: number } = {}): Verdict {
  const failed = checks.filter((c) => c.status === 'fail' && c.cause && c.cause !== 'OK');
  const root = failed.find((c) => c.id !== 'status.classify') ?? failed[0];
  const warned = checks.filter((c) => c.status === 'warn' && c.cause);
  if (root) {
    const evidence = [...failed, ...warned].filter((c) => c !== root).map((c) => `${c.id} ${c.cause}`);
    return { cause: root.cause!, check: root.id, observed: root.observed, remedy: root.remedy, commands: root.commands, evidence };
  }
  const sent = checks.find((c) => c.id === 'messages.request' && c.status === 'pass');
  const exit = context.clientExitCode !== undefined ? `The client exited with ${context.clientExitCode}, but ` : '';
  return {
    cause: 'FAILURE_NOT_REPRODUCED',
    check: null,
    observed: `${exit}no check fails now${sent ? ', and the short real request gets a normal answer on the same route' : ''}${warned.length ? ` (warnings: ${warned.map((c) => `${c.id} ${c.cause}`).join(', ')})` : ''}.`,
    remedy: exit
      ? "The route, key and model work, so read the client's own message above: a passing upstream fault (run it again), a problem with the prompt or its files, or an error inside the client."
      : 'Nothing to fix on this route now. If a client still fails, run `gwctl diagnose --status <status>` with the status it shows.',
    commands: exit ? ['gwctl start   # again', 'gwctl diagnose'] : ['gwctl diagnose --status <status>'],
    evidence: warned.map((c) => `${c.id} ${c.cause}`),
  };
}
