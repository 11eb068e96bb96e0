// gwctl verify [--base-url URL] [--type messages|chat|images] [--key-env NAME] [--json]
// Lints the key and base URL, then GET …/models with `Authorization: Bearer`: a model list proves
// the address is reachable and the key recognised, before any client is configured.
import type { CommandModule } from 'yargs';
import { undiciGet } from '../../core/client/undici-http-get.ts';
import type { HttpGet } from '../../core/client/http-get.ts';
import type { RouteType } from '../../core/doctor/classify-models-call.ts';
import { runVerify } from '../../core/doctor/run-verify.ts';
import { verifyTarget } from '../../core/doctor/verify-target.ts';
import { CLIENT_PROFILES, type ProfileName } from '../../core/config/client-profiles.ts';
import { EXIT, type CliContext } from '../cli-context.ts';
import { toJson } from '../output/format-table.ts';
import { renderChecks } from '../output/render-checks.ts';
import { settingsOptions } from './config/settings-options.ts';

interface Args {
  baseUrl?: string;
  imageBaseUrl?: string;
  type?: RouteType;
  keyEnv?: string;
  timeout: number;
  json: boolean;
}

export function verifyCommand(ctx: CliContext, http: HttpGet = undiciGet): CommandModule<object, Args> {
  return {
    command: 'verify',
    describe: 'Check a key and base URL with GET /v1/models before configuring any client',
    builder: (y) =>
      settingsOptions
        .add(y, ['imageBaseUrl', 'client.profile', 'client.tokenVar'])
        .option('base-url', { type: 'string', describe: 'The base URL as entered in the client (default: from the baseUrl setting, with /v1 for --type chat) [env GWCTL_BASE_URL]' })
        .option('type', { choices: ['messages', 'chat', 'images'] as const, describe: "Route the base URL is for: messages (no /v1), chat (ends with /v1), images; default: from the client profile (messages for claude and custom, chat for the others)" })
        .option('key-env', { type: 'string', describe: "Variable holding the key (default: the client's token variable, e.g. ANTHROPIC_AUTH_TOKEN, else MSGAPI_AUTH_TOKEN); keys are never taken as arguments" })
        .option('timeout', { type: 'number', default: 10_000, describe: 'Milliseconds to wait for the connection and the answer' })
        .option('json', { type: 'boolean', default: false, describe: 'Print one JSON document: {"schemaVersion":1,"ok","checks":[…],"models",…}' })
        .check((raw) => {
          const a = raw as unknown as Args;
          if (a.keyEnv !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(a.keyEnv)) return `--key-env must be a variable name, got "${a.keyEnv}".`;
          if (!Number.isInteger(a.timeout) || a.timeout < 1) return `--timeout must be a positive whole number of milliseconds, got ${a.timeout}.`;
          return true;
        }) as never,
    handler: async (args) => {
      const settings = settingsOptions.load(args as unknown as Record<string, unknown>, ctx);
      const type: RouteType = args.type ?? (CLIENT_PROFILES[settings['client.profile'].value as ProfileName].protocol === 'messages' ? 'messages' : 'chat');
      const { baseUrl, keyVar, vars } = settingsOptions.guard(() => verifyTarget(settings, type, ctx.env, args.keyEnv));
      const context = { keyVar, key: ctx.env[keyVar], baseUrl, routeType: type, http, timeoutMs: args.timeout, vars };
      if (!args.json) ctx.stdout(`gwctl verify: ${baseUrl} (${type}), key from ${keyVar}\n`);
      const report = await runVerify(context, { onResult: (r) => (args.json ? ctx.stderr(renderChecks.progress(r)) : ctx.stdout(renderChecks.one(r))) });
      if (args.json) ctx.stdout(toJson(report));
      else ctx.stdout(renderChecks.summary(report.checks));
      ctx.finish(report.ok ? EXIT.ok : EXIT.failed);
    },
  };
}
