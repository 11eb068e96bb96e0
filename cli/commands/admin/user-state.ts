// gwctl admin user disable|enable <name>: a disabled account's keys answer 401 on every instance from
// the next request on, and its web sessions end; enabling brings them back (keys were not deleted).
// The last active operator cannot be disabled; a user already in that state is left as is.
import type { CommandModule } from 'yargs';
import { setUserDisabled } from '../../../server/accounts/account-actions.ts';
import { CliError, EXIT, type CliContext } from '../../cli-context.ts';
import { cliActor } from './cli-actor.ts';
import { asCliError } from './account-errors.ts';
import { toJson } from '../../output/format-table.ts';
import { announceRevocation, withStore, withStoreOptions, type StoreArgs } from './store-options.ts';

interface Args extends StoreArgs {
  name: string;
  json: boolean;
}

export function userStateCommand(ctx: CliContext, action: 'disable' | 'enable'): CommandModule<object, Args> {
  const disabled = action === 'disable';
  return {
    command: `${action} <name>`,
    describe: disabled ? "Disable a user: their keys answer 401 and their sessions end (nothing is deleted)" : 'Enable a disabled user again',
    builder: (y) =>
      withStoreOptions(y)
        .positional('name', { type: 'string', demandOption: true, describe: 'User name (see `gwctl admin user list`)' })
        .option('json', { type: 'boolean', default: false, describe: 'Print one JSON document' }) as never,
    handler: async (args) => {
      const result = await withStore(args, ctx.env, async (store) => {
        const found = await store.users.findByName(args.name);
        if (!found) return undefined;
        // Running instances are told after the store is closed (announceRevocation below).
        return asCliError(() => setUserDisabled(store, found, disabled, cliActor(), () => undefined));
      });
      if (!result) throw new CliError(`No user named "${args.name}".`, 'List users with `gwctl admin user list`.');
      const { user, changed } = result;
      if (disabled && changed) await announceRevocation(args, ctx.env, { kind: 'user', id: user.id });
      if (args.json) ctx.stdout(toJson({ name: user.username, id: user.id, disabled, changed }));
      else if (!changed) ctx.stdout(`${user.username} is already ${disabled ? 'disabled' : 'enabled'}; nothing changed.\n`);
      else ctx.stdout(disabled ? `Disabled ${user.username}: their keys now answer 401 and their web sessions ended.\n` : `Enabled ${user.username}: their keys work again.\n`);
      ctx.finish(EXIT.ok);
    },
  };
}
