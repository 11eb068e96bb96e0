// gwctl entry: runs the command tree and is the only place that sets the process exit code.
// `gwctl --version` is answered before anything else loads: it is what scripts and installers call
// to check the tool, so it should cost little more than starting node. Everything else loads the
// command tree (yargs and the command modules; each handler loads what it needs itself).
import { setFlagsFromString } from 'node:v8';
import { gwctlVersion } from './version.ts';

const argv = process.argv.slice(2);
if (argv.length === 1 && argv[0] === '--version') {
  process.stdout.write(`${gwctlVersion()}\n`);
} else {
  // undici parses HTTP with a WebAssembly module that V8 goes on optimising in the background after
  // the first request, and the process cannot exit before that is done: a command that makes one
  // request (verify, diagnose) would wait ~0.3-0.5 s at its end. Only the gateway, which parses
  // HTTP all day, gains from the optimised code; every other command keeps the baseline compiler.
  if (argv[0] !== 'serve') setFlagsFromString('--liftoff-only');
  const { runCli } = await import('./run-cli.ts');
  process.exitCode = await runCli(argv);
}
