// gwctl entry: yargs with strict parsing; the only place that sets the process exit code.
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { ConfigError } from '../server/errors/config-error.ts';
import { CliError, EXIT, type CliContext } from './cli-context.ts';
import { adminCommand } from './commands/admin.ts';
import { serveCommand } from './commands/serve.ts';

function readStdin(): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    process.stdin.on('data', (c: Buffer) => chunks.push(c));
    process.stdin.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    process.stdin.on('error', reject);
  });
}

export async function main(argv: string[]): Promise<number> {
  let exitCode: number | undefined;
  let onSignal: (signal: NodeJS.Signals) => void = () => undefined;
  const stopSignal = new Promise<NodeJS.Signals>((resolve) => {
    onSignal = resolve;
  });
  let signalled = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (signalled) process.exit(EXIT.interrupted);
      signalled = true;
      onSignal(signal);
    });
  }
  const ctx: CliContext = {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    env: process.env,
    readStdin,
    finish: (code) => {
      exitCode = code;
    },
    stopSignal,
  };

  let usageError: string | undefined;
  const parser = yargs(argv)
    .scriptName('gwctl')
    .env('GWCTL')
    .command(serveCommand(ctx) as never)
    .command(adminCommand(ctx))
    .demandCommand(1, 'Name a command.')
    .strict()
    .recommendCommands()
    .help()
    .alias('h', 'help')
    .version()
    .wrap(Math.min(110, process.stdout.columns || 100))
    .fail((message, error) => {
      if (error) throw error;
      usageError = message;
    })
    .exitProcess(false);

  try {
    await parser.parseAsync();
  } catch (error) {
    if (error instanceof CliError) {
      process.stderr.write(`gwctl: ${error.message}\n${error.remedy ? `  → ${error.remedy}\n` : ''}`);
      return error.exitCode;
    }
    if (error instanceof ConfigError) {
      process.stderr.write(`gwctl: ${error.message}\n  → ${error.remedy}\n`);
      return EXIT.usage;
    }
    process.stderr.write(`gwctl: internal error: ${(error as Error)?.stack ?? error}\n`);
    return EXIT.internal;
  }
  if (usageError !== undefined) {
    process.stderr.write(`gwctl: ${usageError}\nRun with --help for usage.\n`);
    return EXIT.usage;
  }
  return exitCode ?? EXIT.ok;
}

process.exitCode = await main(hideBin(process.argv));
