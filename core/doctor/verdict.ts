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

/** `reported`: a failure was seen (a status given, or a client exit code); none failing then means "not reproduced". */
export function verdictOf(checks: readonly CheckResult[], context: { clientExitCode?: number; status?: number } = {}): Verdict {
  const failed = checks.filter((c) => c.status === 'fail' && c.cause && c.cause !== 'OK');
  const root = failed.find((c) => c.id !== 'status.classify') ?? failed[0];
  const warned = checks.filter((c) => c.status === 'warn' && c.cause);
  if (root) {
    const evidence = [...failed, ...warned].filter((c) => c !== root).map((c) => `${c.id} ${c.cause}`);
    return { cause: root.cause!, check: root.id, observed: root.observed, remedy: root.remedy, commands: root.commands, evidence };
  }
  const sent = checks.find((c) => c.id === 'messages.request' && c.status === 'pass');
  const warnings = warned.length ? ` (warnings: ${warned.map((c) => `${c.id} ${c.cause}`).join(', ')})` : '';
  if (context.clientExitCode === undefined && context.status === undefined) {
    return {
      cause: 'OK',
      check: null,
      observed: `no check fails${sent ? ', and the short real request gets a normal answer on the route the client would take' : ''}${warnings}.`,
      remedy: null,
      commands: [],
      evidence: warned.map((c) => `${c.id} ${c.cause}`),
    };
  }
  const exit = context.clientExitCode !== undefined ? `The client exited with ${context.clientExitCode}, but ` : '';
  return {
    cause: 'FAILURE_NOT_REPRODUCED',
    check: null,
    observed: `${exit}no check fails now${sent ? ', and the short real request gets a normal answer on the same route' : ''}${warnings}.`,
    remedy: exit
      ? "The route, key and model work, so read the client's own message above: a passing upstream fault (run it again), a problem with the prompt or its files, or an error inside the client."
      : `The ${context.status} was not reproduced: a passing fault of the service or its upstream. If it comes back, note the time and report it.`,
    commands: exit ? ['gwctl start   # again', 'gwctl diagnose'] : [`gwctl diagnose --status ${context.status}   # when it happens again`],
    evidence: warned.map((c) => `${c.id} ${c.cause}`),
  };
}
