// gwctl proxy cache [--json]: per session, hit rate, cache read and creation tokens, TTL tier and
// when observed, each its own measure; not the bill, and no saving promised.
import type { CommandModule } from 'yargs';
import { readCacheReport } from '../../../core/proxy/cache-report.ts';
import { EXIT, type CliContext } from '../../cli-context.ts';
import { toJson } from '../../output/format-table.ts';
import { renderProxyReports } from '../../output/render-proxy-reports.ts';

interface Args {
  json: boolean;
}

export function proxyCacheCommand(ctx: CliContext): CommandModule<object, Args> {
  return {
    command: 'cache',
    describe: 'Cache observations per session from ~/.claude/quota-status/ (not the bill)',
    builder: (y) => y.option('json', { type: 'boolean', default: false, describe: 'Print {"schemaVersion":1,"dir","sessions":[…],"account","note"}' }) as never,
    handler: (args) => {
      const report = readCacheReport(ctx.env);
      ctx.stdout(args.json ? toJson(report) : renderProxyReports.cache(report, ctx.env));
      ctx.finish(EXIT.ok);
    },
  };
}
