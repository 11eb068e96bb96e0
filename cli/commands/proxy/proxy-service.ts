// gwctl proxy service install [--force] [--debug --confirm-debug] | enable | restart | uninstall:
// the service definition and the user supervisor (systemd user units / launchd agent).
import type { CommandModule } from 'yargs';
import type { ProxyAction } from '../../../core/proxy/proxy-action-types.ts';
import type { CliContext } from '../../cli-context.ts';
import { actionOptions, runProxyAction, type ActionArgs } from './run-proxy-action.ts';
import { checkMs, withProxySettings, type ProxyCliDeps } from './proxy-cli-deps.ts';

interface Args extends ActionArgs {
  force?: boolean;
  debug?: boolean;
  confirmDebug?: boolean;
  regress?: boolean;
}

const DESCRIBE: Record<string, string> = {
  install: 'Write the definition with CACHE_FIX_PROXY_UPSTREAM set for the auth path, then enable and start it',
  enable: 'Enable and start an installed definition (fails without one: unit or plist not found)',
  restart: 'Restart at supervisor level, reloading a changed definition (refused inside a client session)',
  uninstall: 'Stop, disable and remove the definition (backed up first; refused inside a client session)',
};

function sub(ctx: CliContext, deps: ProxyCliDeps, name: 'install' | 'enable' | 'restart' | 'uninstall'): CommandModule<object, Args> {
  return {
    command: name,
    describe: DESCRIBE[name]!,
    builder: (y) => {
      let b = withProxySettings(y).options(actionOptions);
      if (name === 'install') {
        b = b
          .option('force', { type: 'boolean', default: false, describe: 'Regenerate an existing definition (backed up first) and restart the service' })
          .option('debug', { type: 'boolean', default: false, describe: 'Capture CACHE_FIX_DEBUG=1 (needs --confirm-debug)' })
          .option('confirm-debug', { type: 'boolean', default: false, describe: 'Confirm that debug logs may record sensitive context (header values, session ids)' });
      }
      if (name === 'install' || name === 'restart') b = b.option('regress', { type: 'boolean', default: false, describe: 'Run the regression step before and after a body-altering change' });
      return b.check((raw) => checkMs('wait', (raw as unknown as Args).wait)) as never;
    },
    handler: (args) =>
      runProxyAction(ctx, deps, args as unknown as Args & Record<string, unknown>, `service-${name}` as ProxyAction, {
        force: Boolean(args.force),
        debug: Boolean(args.debug),
        confirmDebug: Boolean(args.confirmDebug),
        regress: Boolean(args.regress),
      }),
  };
}

export function proxyServiceCommand(ctx: CliContext, deps: ProxyCliDeps): CommandModule {
  return {
    command: 'service',
    describe: 'The proxy as a user service: install [--force] | enable | restart | uninstall',
    builder: (y) =>
      y
        .command(sub(ctx, deps, 'install') as never)
        .command(sub(ctx, deps, 'enable') as never)
        .command(sub(ctx, deps, 'restart') as never)
        .command(sub(ctx, deps, 'uninstall') as never)
        .demandCommand(1, 'Name a service subcommand: install, enable, restart or uninstall.'),
    handler: () => undefined,
  };
}
