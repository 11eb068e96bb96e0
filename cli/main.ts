// gwctl entry: runs the command tree and is the only place that sets the process exit code.
import { hideBin } from 'yargs/helpers';
import { runCli } from './run-cli.ts';

process.exitCode = await runCli(hideBin(process.argv));
