// Turns what an operation threw into a message and a remedy for the screen. Settings problems carry
// their own remedy; anything else is an internal error and says so.
export interface ProblemInfo {
  message: string;
  remedy: string | null;
}

export function toProblem(error: unknown): ProblemInfo {
  const e = error as { name?: string; message?: string; remedy?: unknown };
  if (e && typeof e.remedy === 'string' && typeof e.message === 'string') return { message: e.message, remedy: e.remedy };
  const message = e?.message ?? String(error);
  return { message: `internal error: ${message}`, remedy: 'Try the same from the command line (shown under "By hand") for details, and report it if it persists.' };
}

/** Carries a problem found earlier (e.g. unusable settings) through an operation's failure path. */
export class ProblemError extends Error {
  override readonly name = 'ProblemError';
  readonly remedy: string;
  constructor(problem: ProblemInfo | null) {
    super(problem?.message ?? 'gwctl settings could not be read');
    this.remedy = problem?.remedy ?? 'Check the settings (Settings screen or `gwctl config list`).';
  }
}
