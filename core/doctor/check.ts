// A check of the doctor engine: an id, the reported statuses it can help explain, and an async run
// that returns plain data. The same results feed the CLI text, --json and the TUI.
import type { CauseCode } from './cause-codes.ts';

export type CheckStatus = 'pass' | 'warn' | 'fail' | 'skip';

export interface CheckResult {
  /** Stable id such as `proxy.running`. */
  id: string;
  status: CheckStatus;
  /** Stable cause code; `OK` when passed, null only when skipped. */
  cause: CauseCode | null;
  /** What was seen, with keys masked. */
  observed: string;
  /** What to do, in words; null when nothing is to be done. */
  remedy: string | null;
  /** Runnable commands that carry the remedy out. */
  commands: string[];
}

export type CheckOutcome = Omit<CheckResult, 'id'>;

export interface Check<C> {
  id: string;
  /** Statuses a user may report (`diagnose --status N`) that this check can help explain; absent = all. */
  explains?: readonly number[];
  /** Kinds of client (`diagnose --client`) this check concerns; absent = all. */
  clients?: readonly ('chat' | 'messages' | 'images')[];
  /** `earlier` holds the results of the checks that ran before, in order. */
  run(context: C, earlier: readonly CheckResult[]): Promise<CheckOutcome>;
}
