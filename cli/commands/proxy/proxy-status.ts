// gwctl proxy status [--json]: installation and version, service definition, supervisor, /health,
// processes on the port, upstream against the auth path. Exit 1 when something must be fixed.
import type { CommandModule } from 'yargs';
import { EXIT, type CliContext } from '../../cli-context.ts';
import { toJson } from '../../output/format-table.ts';
import { renderProxyStatus } from '../../output/render-proxy-status.ts';
import { settingsOptions } from '../config/settings-options.ts';
import { proxyOperations, withProxySettings, type ProxyCliDeps } from './proxy-cli-deps.ts';

interface Args {
  json: boolean;
}

export function proxyStatusCommand(ctx: CliContext, deps: ProxyCliDeps): CommandModule<object, Args> {
  return {
    command: 'status',
    describe: 'Installed version (4.2.1 pinned), service definition, supervisor, /health, port, upstream',
    builder: (y) => withProxySettings(y).option('json', { type: 'boolean', default: false, describe: 'Print one JSON document' }) as never,
    handler: async (args) => {
      const report = await settingsOptions.guard(() => proxyOperations(ctx, args as unknown as Record<string, unknown>, deps).status());
      ctx.stdout(args.json ? toJson(report) : renderProxyStatus(report, ctx.env));
      ctx.finish(report.ok ? EXIT.ok : EXIT.failed);
    },
  };
}
