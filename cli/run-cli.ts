// gwctl command tree: yargs with strict parsing; returns the exit code for main.ts to set.
import yargs from 'yargs';
import { ConfigError } from '../server/errors/config-error.ts';
import { CliError, EXIT, type CliContext } from './cli-context.ts';
import { adminCommand } from './commands/admin.ts';
import { serveCommand } from './commands/serve.ts';
import { configCommand } from './commands/config.ts';
import { diagnoseCommand } from './commands/diagnose.ts';
import { explainCommand } from './commands/explain.ts';
import { proxyCommands } from './commands/proxy.ts';
import { startCommand } from './commands/start.ts';
import { tuiCommand } from './commands/tui.ts';
import { verifyCommand } from './commands/verify.ts';
import { loginCommand } from './commands/login.ts';
import { logoutCommand } from './commands/logout.ts';
import { tokenCommand } from './commands/token.ts';
import { gwctlVersion } from './version.ts';

function readStdin(): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    process.stdin.on('data', (c: Buffer) => chunks.push(c));
    process.stdin.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    process.stdin.on('error', reject);
  });
}

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  readStdin: () => Promise<string>;
  /** Standard input and output are a terminal; absent = not (the interactive app is not opened). */
  isTerminal?: () => boolean;
  /** Standard output alone is a terminal; absent = not. */
  stdoutIsTerminal?: () => boolean;
  /** A question answered on the terminal; absent when standard input is not one. */
  ask?: (question: string) => Promise<string>;
}

async function askOnTerminal(question: string): Promise<string> {
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await rl.question(question);
  } finally {
    rl.close();
  }
}

const processIo: CliIo = {
  stdout: (t) => void process.stdout.write(t),
  stderr: (t) => void process.stderr.write(t),
  env: process.env,
  readStdin,
  isTerminal: () => Boolean(process.stdin.isTTY && process.stdout.isTTY),
  stdoutIsTerminal: () => Boolean(process.stdout.isTTY),
  ...(process.stdin.isTTY ? { ask: askOnTerminal } : {}),
};

/**
 * Resolves on the first SIGINT/SIGTERM; a second one exits at once with 130. A repeat within a
 * moment is the same signal re-raised by a library's exit hook (conf's when-exit does this), not
 * the user asking twice, so it is ignored.
 */
function waitForStopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    let firstAt: number | undefined;
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.on(signal, () => {
        if (firstAt === undefined) {
          firstAt = Date.now();
          resolve(signal);
        } else if (Date.now() - firstAt > 500) {
          process.exit(EXIT.interrupted);
        }
      });
    }
  });
}

/** The help text will be shown: asked for, or no command named. */
const wantsHelp = (argv: readonly string[]): boolean => argv.length === 0 || argv.some((a) => a === '--help' || a === '-h' || a === 'help');

export async function runCli(argv: string[], io: CliIo = processIo): Promise<number> {
  const isTerminal = io.isTerminal ?? (() => false);
  let exitCode: number | undefined;
  const ctx: CliContext = {
    ...io,
    finish: (code) => {
      exitCode = code;
    },
    waitForStopSignal,
  };

  const parser = yargs(argv)
    .scriptName('gwctl')
    .command(serveCommand(ctx) as never)
    .command(adminCommand(ctx))
    .command(configCommand(ctx))
    .command(verifyCommand(ctx) as never)
    .command(startCommand(ctx) as never)
    .command(loginCommand(ctx) as never)
    .command(tokenCommand(ctx) as never)
    .command(logoutCommand(ctx) as never)
    .command(diagnoseCommand(ctx) as never)
    .command(explainCommand(ctx) as never)
    .command(proxyCommands(ctx) as never)
    .command(tuiCommand(ctx, { isTerminal }) as never)
    .demandCommand(1, 'Name a command.')
    .strict()
    .recommendCommands()
    .help()
    .alias('h', 'help')
    .version(gwctlVersion())
    // yargs renders (and caches) a command's help text each time the command runs; wrapping it loads
    // ICU's normalisation data (several MiB a long-lived `gwctl serve` would keep). Wrap only when the
    // help is to be shown.
    .wrap(wantsHelp(argv) ? Math.min(110, process.stdout.columns || 100) : null)
    .fail((message, error) => {
      // yargs reports its own validation failures (including .check) as YError: those are usage errors.
      if (error instanceof Error && error.name !== 'YError') throw error;
      throw new CliError(message || (error instanceof Error ? error.message : String(error)), 'Run with --help for usage.', EXIT.usage);
    })
    .exitProcess(false);

  // `gwctl` alone: the interactive app on a terminal; elsewhere the help, as a usage error.
  if (argv.length === 0) {
    if (!isTerminal()) {
      io.stderr(`${await parser.getHelp()}\n\ngwctl: name a command (the interactive app needs a terminal).\n`);
      return EXIT.usage;
    }
    argv = ['tui'];
  }

  try {
    await parser.parseAsync(argv);
  } catch (error) {
    if (error instanceof CliError) {
      io.stderr(`gwctl: ${error.message}\n${error.remedy ? `  → ${error.remedy}\n` : ''}`);
      return error.exitCode;
    }
    if (error instanceof ConfigError) {
      io.stderr(`gwctl: ${error.message}\n  → ${error.remedy}\n`);
      return EXIT.usage;
    }
    io.stderr(`gwctl: internal error: ${(error as Error)?.stack ?? error}\n`);
    return EXIT.internal;
  }
  return exitCode ?? EXIT.ok;
}

