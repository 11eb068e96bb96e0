// gwctl admin user delete <name> [--yes]: the account, its keys (revoked on every instance at once),
// sessions, conversations and images go; its usage stays, under its id. Asks first on a terminal;
// elsewhere --yes is required, so a script never deletes by accident.
import type { CommandModule } from 'yargs';
import { deleteUser } from '../../../server/accounts/account-actions.ts';
import { CliError, EXIT, type CliContext } from '../../cli-context.ts';
import { toJson } from '../../output/format-table.ts';
import { asCliError } from './account-errors.ts';
import { cliActor } from './cli-actor.ts';
import { announceRevocation, withStore, withStoreOptions, type StoreArgs } from './store-options.ts';

interface Args extends StoreArgs {
  name: string;
  yes: boolean;
  json: boolean;
}

export function userDeleteCommand(ctx: CliContext): CommandModule<object, Args> {
  return {
    command: 'delete <name>',
    describe: 'Delete a user: keys revoked everywhere at once, sessions ended; usage is kept',
    builder: (y) =>
      withStoreOptions(y)
        .positional('name', { type: 'string', demandOption: true, describe: 'User name (see `gwctl admin user list`)' })
        .option('yes', { alias: 'y', type: 'boolean', default: false, describe: 'Do not ask (required when not on a terminal)' })
        .option('json', { type: 'boolean', default: false, describe: 'Print one JSON document' }) as never,
    handler: async (args) => {
      if (!args.yes) {
        if (!ctx.ask) throw new CliError(`Not deleting "${args.name}" without confirmation.`, `Add --yes: gwctl admin user delete ${args.name} --yes`, EXIT.usage);
        const answer = await ctx.ask(`Delete user "${args.name}", revoke all their keys and end their sessions? Type the name to confirm: `);
        if (answer.trim() !== args.name) throw new CliError('Not deleted: the answer did not match the name.', undefined, EXIT.failed);
      }
      const result = await withStore(args, ctx.env, async (store) => {
        const found = await store.users.findByName(args.name);
        if (!found) throw new CliError(`No user named "${args.name}".`, 'List users with `gwctl admin user list`.');
        const { keysRevoked } = await asCliError(() => deleteUser(store, found, cliActor(), () => undefined));
        return { user: found, keysRevoked };
      });
      await announceRevocation(args, ctx.env, { kind: 'user', id: result.user.id });
      if (args.json) ctx.stdout(toJson({ name: result.user.username, id: result.user.id, deleted: true, keysRevoked: result.keysRevoked }));
      else ctx.stdout(`Deleted ${result.user.username}: ${result.keysRevoked} key(s) revoked, sessions ended; their usage stays under ${result.user.id}.\n`);
      ctx.finish(EXIT.ok);
    },
  };
}
