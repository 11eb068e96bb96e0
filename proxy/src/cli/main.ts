import { ProxyError, errorMessage, exitCodeFor } from '../errors.ts';
import { VERSION } from '../version.ts';
import type { CliIo } from './cli-io.ts';
import { helpText } from './help-text.ts';
import { healthcheck } from './healthcheck.ts';
import { installService } from './install-service.ts';
import { startServer } from './server.ts';
import { uninstallService } from './uninstall-service.ts';

function reportError(io: CliIo, error: unknown): number {
  if (error instanceof ProxyError) {
    const prefix = error.message.startsWith('[') ? '' : 'cache-fix-proxy: ';
    io.stderr(`${prefix}${error.message}${error.hint ? `\n  hint: ${error.hint}` : ''}\n`);
    return exitCodeFor(error);
  }
  io.stderr(`cache-fix-proxy: internal error: ${errorMessage(error)}\n`);
  return 3;
}

/**
 * Dispatches on the first argument. `server` keeps running until a signal; `onServer` gets the
 * running server so the entry point can wire signals and tests can stop it.
 */
const OPTIONS: Record<string, string[]> = {
  server: [],
  'install-service': ['--force'],
  'uninstall-service': [],
  healthcheck: ['--restart-unit'],
};

export async function main(argv: string[], io: CliIo, onServer?: (server: Awaited<ReturnType<typeof startServer>>) => void): Promise<number> {
  const [command, ...rest] = argv;
  if (command && command in OPTIONS) {
    if (rest.includes('--help') || rest.includes('-h')) {
      io.stdout(helpText());
      return 0;
    }
    const unknown = rest.find((arg, i) => arg.startsWith('-') && !OPTIONS[command]!.includes(arg) && rest[i - 1] !== '--restart-unit');
    if (unknown) {
      io.stderr(`cache-fix-proxy: unknown option "${unknown}" for ${command} (see --help)\n`);
      return 2;
    }
  }
  try {
    switch (command) {
      case '--version':
      case '-v':
      case 'version':
        io.stdout(`${VERSION}\n`);
        return 0;
      case '--help':
      case '-h':
      case 'help':
        io.stdout(helpText());
        return 0;
      case 'server': {
        const server = await startServer(io);
        onServer?.(server);
        return await server.done;
      }
      case 'install-service':
        installService(io, rest.includes('--force'));
        return 0;
      case 'uninstall-service':
        uninstallService(io);
        return 0;
      case 'healthcheck': {
        const at = rest.indexOf('--restart-unit');
        return await healthcheck(io, at >= 0 ? rest[at + 1] : undefined);
      }
      case undefined:
        io.stderr(`cache-fix-proxy: missing command; try "cache-fix-proxy server" (see --help)\n`);
        return 2;
      default:
        io.stderr(`cache-fix-proxy: unknown command "${command}" (see --help)\n`);
        return 2;
    }
  } catch (error) {
    return reportError(io, error);
  }
}
