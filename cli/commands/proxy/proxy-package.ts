// gwctl proxy install|upgrade [package] [--dry-run] [--json]: `npm install -g <package>@4.2.1` (any
// other version refused, exit 2), then the installed version is checked. Upgrade also backs up the
// definition, restarts at supervisor level, checks /health, and refuses inside a client session.
import type { CommandModule } from 'yargs';
import type { CliContext } from '../../cli-context.ts';
import { actionOptions, runProxyAction, type ActionArgs } from './run-proxy-action.ts';
import { checkMs, withProxySettings, type ProxyCliDeps } from './proxy-cli-deps.ts';

interface Args extends ActionArgs {
  package?: string;
  regress: boolean;
}

export function proxyPackageCommand(ctx: CliContext, deps: ProxyCliDeps, action: 'install' | 'upgrade'): CommandModule<object, Args> {
  return {
    command: `${action} [package]`,
    describe:
      action === 'install'
        ? 'npm install -g the proxy pinned to 4.2.1 (package: registry name or .tgz; default the proxy.package setting), then verify the version'
        : 'Install 4.2.1 again, restart at supervisor level, check /health (refused inside a client session)',
    builder: (y) => {
      let b = withProxySettings(y)
        .positional('package', { type: 'string', describe: 'A registry name (optionally @4.2.1) or a .tgz path; overrides proxy.package' })
        .options(actionOptions);
      if (action === 'upgrade') b = b.option('regress', { type: 'boolean', default: false, describe: 'Run the regression step (short session + resume run) before and after' });
      return b.check((raw) => checkMs('wait', (raw as unknown as Args).wait)) as never;
    },
    handler: (args) => runProxyAction(ctx, deps, args as unknown as Args & Record<string, unknown>, action, { package: args.package, regress: Boolean(args.regress) }),
  };
}
