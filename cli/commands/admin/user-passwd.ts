// gwctl admin user passwd <name> [--password-stdin]: an operator sets a user's password (a lost first
// admin password included). Without --password-stdin a password is generated and printed once.
import type { CommandModule } from 'yargs';
import { resetPassword } from '../../../server/accounts/account-actions.ts';
import { randomBase62 } from '../../../server/auth/random-tokens.ts';
import { CliError, EXIT, type CliContext } from '../../cli-context.ts';
import { toJson } from '../../output/format-table.ts';
import { printSecret } from '../../output/print-secret.ts';
import { asCliError } from './account-errors.ts';
import { cliActor } from './cli-actor.ts';
import { withStore, withStoreOptions, type StoreArgs } from './store-options.ts';

interface Args extends StoreArgs {
  name: string;
  passwordStdin: boolean;
  json: boolean;
}

export function userPasswdCommand(ctx: CliContext): CommandModule<object, Args> {
  return {
    command: 'passwd <name>',
    describe: "Set a user's password (generated and printed once unless --password-stdin); their web sessions end",
    builder: (y) =>
      withStoreOptions(y)
        .positional('name', { type: 'string', demandOption: true, describe: 'User name (see `gwctl admin user list`)' })
        .option('password-stdin', { type: 'boolean', default: false, describe: 'Read the new password from standard input' })
        .option('json', { type: 'boolean', default: false, describe: 'Print one JSON document' }) as never,
    handler: async (args) => {
      const password = args.passwordStdin ? (await ctx.readStdin()).replace(/\r?\n$/, '') : randomBase62(20);
      const user = await withStore(args, ctx.env, async (store) => {
        const found = await store.users.findByName(args.name);
        if (!found) throw new CliError(`No user named "${args.name}".`, 'List users with `gwctl admin user list`.');
        await asCliError(() => resetPassword(store, found, password, cliActor()));
        return found;
      });
      const generated = args.passwordStdin ? undefined : password;
      if (args.json) ctx.stdout(toJson({ name: user.username, id: user.id, ...(generated ? { password: generated } : {}) }));
      else if (generated) printSecret(ctx, `New password of ${user.username} (shown once, store it now):`, generated, 'Their web sessions ended; their API keys keep working.');
      else ctx.stdout(`Changed the password of ${user.username}; their web sessions ended, their API keys keep working.\n`);
      ctx.finish(EXIT.ok);
    },
  };
}
