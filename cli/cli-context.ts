// What a command handler gets: where to write, the environment, and how to report its outcome.
// Handlers return exit codes through finish(); only main.ts turns them into the process exit code.

export const EXIT = { ok: 0, failed: 1, usage: 2, internal: 3, interrupted: 130 } as const;

export interface CliContext {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  /** Reads all of standard input (for --password-stdin). */
  readStdin: () => Promise<string>;
  /** Standard output is a terminal: absent = not (then a secret goes alone on stdout, see printSecret). */
  stdoutIsTerminal?: () => boolean;
  /** Asks one question on the terminal and returns the answer line; absent when there is no terminal to ask on. */
  ask?: (question: string) => Promise<string>;
  finish: (exitCode: number) => void;
  /** Resolves when the process is asked to stop (SIGINT/SIGTERM); long-running commands wait on it. */
  waitForStopSignal: () => Promise<NodeJS.Signals>;
}

/** A failure the user can act on: printed as message + remedy, with an exit code. */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    message: string,
    readonly remedy: string | undefined,
    readonly exitCode: number = EXIT.failed,
  ) {
    super(message);
  }
}
