// gwctl proxy upstream check <url> [--json]: probe a relay before it becomes CACHE_FIX_PROXY_UPSTREAM.
import type { CommandModule } from 'yargs';
import { EXIT, type CliContext } from '../../cli-context.ts';
import { toJson } from '../../output/format-table.ts';
import { renderProxyReports } from '../../output/render-proxy-reports.ts';
import { settingsOptions } from '../config/settings-options.ts';
import { checkMs, proxyOperations, withProxySettings, type ProxyCliDeps } from './proxy-cli-deps.ts';

interface Args {
  url: string;
  keyEnv?: string;
  header?: 'bearer' | 'x-api-key';
  model?: string;
  timeout: number;
  json: boolean;
}

function checkCommand(ctx: CliContext, deps: ProxyCliDeps): CommandModule<object, Args> {
  return {
    command: 'check <url>',
    describe: 'Probe a relay: /v1/messages (not a chat-completions /v1 address), SSE, auth header, no signature, faithful statuses',
    builder: (y) =>
      withProxySettings(y)
        .positional('url', { type: 'string', demandOption: true, describe: "The relay's root address (what CACHE_FIX_PROXY_UPSTREAM would be)" })
        .option('key-env', { type: 'string', describe: "Variable holding the client's credential (default: the client's, by auth path)" })
        .option('header', { choices: ['bearer', 'x-api-key'] as const, describe: 'How the client sends it (default: bearer for a token, x-api-key for a vendor key)' })
        .option('model', { type: 'string', describe: 'Model to ask for (default: the first the relay lists)' })
        .option('timeout', { type: 'number', default: 10_000, describe: 'Milliseconds per request' })
        .option('json', { type: 'boolean', default: false, describe: 'Print {"schemaVersion":1,"url","ok","model","checks":[…]}' })
        .check((raw) => {
          const a = raw as unknown as Args;
          try {
            const u = new URL(a.url);
            if (u.protocol !== 'http:' && u.protocol !== 'https:') return `<url> must be http(s), got ${a.url}.`;
          } catch {
            return `<url> is not a URL: "${a.url}".`;
          }
          if (a.keyEnv !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(a.keyEnv)) return `--key-env must be a variable name, got "${a.keyEnv}".`;
          return checkMs('timeout', a.timeout);
        }) as never,
    handler: async (args) => {
      const ops = proxyOperations(ctx, args as unknown as Record<string, unknown>, deps);
      const report = await settingsOptions.guard(() => ops.checkUpstream(args.url, { keyEnv: args.keyEnv, header: args.header, model: args.model, timeoutMs: args.timeout }));
      ctx.stdout(args.json ? toJson(report) : renderProxyReports.relay(report));
      ctx.finish(report.ok ? EXIT.ok : EXIT.failed);
    },
  };
}

export function proxyUpstreamCommand(ctx: CliContext, deps: ProxyCliDeps): CommandModule {
  return {
    command: 'upstream',
    describe: 'Check a relay before using it as the proxy upstream',
    builder: (y) => y.command(checkCommand(ctx, deps) as never).demandCommand(1, 'Name an upstream subcommand: check <url>.'),
    handler: () => undefined,
  };
}
