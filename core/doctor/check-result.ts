// Constructors for check outcomes, so every check states status, cause, observation and remedy alike.
import type { CauseCode } from './cause-codes.ts';
import type { CheckOutcome } from './check.ts';

export const outcome = {
  pass(observed: string): CheckOutcome {
    return { status: 'pass', cause: 'OK', observed, remedy: null, commands: [] };
  },
  warn(cause: CauseCode, observed: string, remedy: string, commands: string[] = []): CheckOutcome {
    return { status: 'warn', cause, observed, remedy, commands };
  },
  fail(cause: CauseCode, observed: string, remedy: string, commands: string[] = []): CheckOutcome {
    return { status: 'fail', cause, observed, remedy, commands };
  },
  skip(observed: string): CheckOutcome {
    return { status: 'skip', cause: null, observed, remedy: null, commands: [] };
  },
};
