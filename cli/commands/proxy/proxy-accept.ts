// gwctl accept [--json] (also `gwctl proxy accept`): the three acceptance layers proxy_running,
// claude_routed and cache_observed, each with its evidence; a failing layer names the diagnosed cause.
import type { CommandModule } from 'yargs';
import { EXIT, type CliContext } from '../../cli-context.ts';
import { toJson } from '../../output/format-table.ts';
import { renderProxyReports } from '../../output/render-proxy-reports.ts';
import { settingsOptions } from '../config/settings-options.ts';
import { checkMs, proxyOperations, withProxySettings, type ProxyCliDeps } from './proxy-cli-deps.ts';

interface Args {
  json: boolean;
  timeout: number;
  wait: number;
}

export function acceptCommand(ctx: CliContext, deps: ProxyCliDeps): CommandModule<object, Args> {
  return {
    command: 'accept',
    describe: 'Three-layer acceptance of the proxy: proxy_running, claude_routed (a one-word session), cache_observed',
    builder: (y) =>
      withProxySettings(y)
        .option('timeout', { type: 'number', default: 120_000, describe: 'Milliseconds the client may take for the short session' })
        .option('wait', { type: 'number', default: 5_000, describe: "Milliseconds to wait for the proxy's observation files after the session" })
        .option('json', { type: 'boolean', default: false, describe: 'Print {"schemaVersion":1,"ok","checks":[…],"layers":[{"id","evidence","diagnosis"}]}' })
        .check((raw) => {
          const a = raw as unknown as Args;
          const t = checkMs('timeout', a.timeout);
          return t === true ? checkMs('wait', a.wait) : t;
        }) as never,
    handler: async (args) => {
      const ops = proxyOperations(ctx, args as unknown as Record<string, unknown>, deps, { clientTimeoutMs: args.timeout, observationWaitMs: args.wait });
      if (!args.json) ctx.stdout('gwctl accept: proxy_running → claude_routed → cache_observed\n');
      const report = await settingsOptions.guard(() => ops.acceptance({ onProgress: (id) => ctx.stderr(`gwctl: ${id} …\n`) }));
      ctx.stdout(args.json ? toJson(report) : renderProxyReports.acceptance(report));
      ctx.finish(report.ok ? EXIT.ok : EXIT.failed);
    },
  };
}
