// gwctl entry: runs the command tree and is the only place that sets the process exit code.
// `gwctl --version` is answered before anything else loads: it is what scripts and installers call
// to check the tool, so it should cost little more than starting node. Everything else loads the
// command tree (yargs and the command modules; each handler loads what it needs itself).
import { gwctlVersion } from './version.ts';

const argv = process.argv.slice(2);
if (argv.length === 1 && argv[0] === '--version') {
  process.stdout.write(`${gwctlVersion()}\n`);
} else {
  const { runCli } = await import('./run-cli.ts');
  process.exitCode = await runCli(argv);
}
