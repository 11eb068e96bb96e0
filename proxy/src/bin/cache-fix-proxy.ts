import { spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { main } from '../cli/main.ts';
import type { CliIo } from '../cli/cli-io.ts';
import { findPackageRoot } from '../util/package-root.ts';

// The only place that reads process state; everything below takes it as arguments.
const io: CliIo = {
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  platform: process.env.CACHE_FIX_SERVICE_PLATFORM || process.platform,
  nodePath: process.execPath,
  // The file node was started with (the installed bin stub that switches on source maps, or this
  // file under tsx): what a service definition must run.
  scriptPath: realpathSync(process.argv[1] ?? fileURLToPath(import.meta.url)),
  packageRoot: findPackageRoot(import.meta.url),
  uid: typeof process.getuid === 'function' ? process.getuid() : 0,
  run(command, args) {
    const result = spawnSync(command, args, { encoding: 'utf8', timeout: 30_000 });
    return { status: result.status, output: `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? result.error.message : ''}` };
  },
};

const code = await main(process.argv.slice(2), io, (server) => {
  process.once('SIGTERM', server.stop);
  process.once('SIGINT', server.stop);
});
process.exitCode = code;
// A server that has stopped may still hold timers of extensions; nothing else should keep us alive.
if (process.argv[2] === 'server') process.exit(code);
