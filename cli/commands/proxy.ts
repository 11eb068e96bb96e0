// gwctl proxy … and gwctl accept: the local cache proxy pinned to 4.2.1: status,
// install and upgrade, the user service, a relay check before using it upstream, cache observations,
// and the three-layer acceptance. Registered together with one `.command(proxyCommands(ctx))`.
import type { CommandModule } from 'yargs';
import type { CliContext } from '../cli-context.ts';
import { acceptCommand } from './proxy/proxy-accept.ts';
import { proxyCacheCommand } from './proxy/proxy-cache.ts';
import type { ProxyCliDeps } from './proxy/proxy-cli-deps.ts';
import { proxyPackageCommand } from './proxy/proxy-package.ts';
import { proxyServiceCommand } from './proxy/proxy-service.ts';
import { proxyStatusCommand } from './proxy/proxy-status.ts';
import { proxyUpstreamCommand } from './proxy/proxy-upstream.ts';

export function proxyCommand(ctx: CliContext, deps: ProxyCliDeps = {}): CommandModule {
  return {
    command: 'proxy',
    describe: 'The local cache proxy (4.2.1): status, install, upgrade, service, upstream check, cache, accept',
    builder: (y) =>
      y
        .command(proxyStatusCommand(ctx, deps) as never)
        .command(proxyPackageCommand(ctx, deps, 'install') as never)
        .command(proxyPackageCommand(ctx, deps, 'upgrade') as never)
        .command(proxyServiceCommand(ctx, deps))
        .command(proxyUpstreamCommand(ctx, deps))
        .command(proxyCacheCommand(ctx) as never)
        .command(acceptCommand(ctx, deps) as never)
        .demandCommand(1, 'Name a proxy subcommand.'),
    handler: () => undefined,
  };
}

/** `proxy` and the top-level `accept`, for one registration in run-cli.ts. */
export function proxyCommands(ctx: CliContext, deps: ProxyCliDeps = {}): CommandModule[] {
  return [proxyCommand(ctx, deps), acceptCommand(ctx, deps) as unknown as CommandModule];
}
