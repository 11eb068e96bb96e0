// gwctl admin user sign-out <name>: ends every device sign-in of the user (gwctl login, Claude
// Code): their access tokens answer 401 on every instance from the next request on, their refresh
// tokens are refused. Keys and web sessions stay (disable the user to stop those too).
import type { CommandModule } from 'yargs';
import { CliError, EXIT, type CliContext } from '../../cli-context.ts';
import { toJson } from '../../output/format-table.ts';
import { cliActor } from './cli-actor.ts';
import { announceRevocation, withStore, withStoreOptions, type StoreArgs } from './store-options.ts';

interface Args extends StoreArgs {
  name: string;
  json: boolean;
}

export function userSignOutCommand(ctx: CliContext): CommandModule<object, Args> {
  return {
    command: 'sign-out <name>',
    describe: "End every device sign-in of a user (gwctl login, Claude Code); keys and web sessions stay",
    builder: (y) =>
      withStoreOptions(y)
        .positional('name', { type: 'string', demandOption: true, describe: 'User name (see `gwctl admin user list`)' })
        .option('json', { type: 'boolean', default: false, describe: 'Print one JSON document' }) as never,
    handler: async (args) => {
      const result = await withStore(args, ctx.env, async (store) => {
        const found = await store.users.findByName(args.name);
        if (!found) return undefined;
        const { endUserSignIns } = await import('../../../server/accounts/account-actions.ts');
        // Running instances are told after the store is closed (announceRevocation below).
        return { user: found, ...(await endUserSignIns(store, found, cliActor(), () => undefined)) };
      });
      if (!result) throw new CliError(`No user named "${args.name}".`, 'List users with `gwctl admin user list`.');
      if (result.ended > 0) await announceRevocation(args, ctx.env, { kind: 'user', id: result.user.id });
      if (args.json) ctx.stdout(toJson({ name: result.user.username, ended: result.ended }));
      else ctx.stdout(result.ended === 0 ? `${result.user.username} has no device sign-in; nothing changed.\n` : `Ended ${result.ended} device sign-in(s) of ${result.user.username}: their access tokens now answer 401.\n`);
      ctx.finish(EXIT.ok);
    },
  };
}
