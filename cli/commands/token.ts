// gwctl token [--base-url URL] [--json]
// Prints a fresh access token of `gwctl login`'s sign-in (refreshed when less than five minutes
// are left) alone on stdout: the command for Claude Code's apiKeyHelper, Codex's provider `auth`
// command and any client with a token command.
import type { CommandModule } from 'yargs';
import { freshAccessToken } from '../../core/sign-in/fresh-access-token.ts';
import { EXIT, type CliContext } from '../cli-context.ts';
import { toJson } from '../output/format-table.ts';
import { settingsOptions } from './config/settings-options.ts';
import { asCliError, refreshLockPath, signInGateway, signInStore } from './sign-in/sign-in-target.ts';

interface Args {
  json: boolean;
}

export function tokenCommand(ctx: CliContext): CommandModule<object, Args> {
  return {
    command: 'token',
    describe: 'Print a short-lived access token of your sign-in (for apiKeyHelper and token commands of clients)',
    builder: (y) =>
      settingsOptions
        .add(y, ['baseUrl'])
        .option('json', { type: 'boolean', default: false, describe: 'Print {"access_token","expires_at"} instead of the bare token' }) as never,
    handler: async (args) => {
      const settings = settingsOptions.load(args as unknown as Record<string, unknown>, ctx);
      const gateway = signInGateway(settings);
      const store = await signInStore(ctx.env);
      const record = await asCliError(() => freshAccessToken(gateway, { store, lockPath: refreshLockPath(ctx.env) }));
      ctx.stdout(args.json ? toJson({ access_token: record.accessToken, expires_at: new Date(record.accessExpiresAt).toISOString() }) : `${record.accessToken}\n`);
      ctx.finish(EXIT.ok);
    },
  };
}
