// Commands that create a secret (key, token, password): on a terminal the summary and the secret go
// to stdout; anywhere else (`KEY=$(gwctl admin key create …)`, a pipe, a file) stdout carries the
// secret alone on one line and the summary goes to stderr, so the capture is the secret and nothing else.
import type { CliContext } from '../cli-context.ts';

export function printSecret(ctx: Pick<CliContext, 'stdout' | 'stderr' | 'stdoutIsTerminal'>, summary: string, secret: string, note: string): void {
  const terminal = ctx.stdoutIsTerminal?.() ?? false;
  (terminal ? ctx.stdout : ctx.stderr)(summary.endsWith('\n') ? summary : `${summary}\n`);
  ctx.stdout(`${secret}\n`);
  ctx.stderr(note.endsWith('\n') ? note : `${note}\n`);
}
