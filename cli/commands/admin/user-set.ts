// gwctl admin user set <name> [--models …] [--budget-…] [--json] — the limits of all of a user's keys
// (models a key may narrow but not widen; budgets counted over all the user's keys together).
// Running gateways apply them from the next request on, on every instance.
import type { CommandModule } from 'yargs';
import { CliError, EXIT, type CliContext } from '../../cli-context.ts';
import { cliActor } from './cli-actor.ts';
import { toJson } from '../../output/format-table.ts';
import { describeLimits, limitFieldsOf, withUserLimitOptions, type LimitArgs } from './limit-options.ts';
import { announceRevocation, withStore, withStoreOptions, type StoreArgs } from './store-options.ts';

interface Args extends StoreArgs, LimitArgs {
  name: string;
  json: boolean;
}

export function userSetCommand(ctx: CliContext): CommandModule<object, Args> {
  return {
    command: 'set <name>',
    describe: "Set a user's limits: allowed models and budgets for all their keys",
    builder: (y) =>
      withUserLimitOptions(withStoreOptions(y))
        .positional('name', { type: 'string', demandOption: true, describe: 'User name (see `gwctl admin user list`)' })
        .option('json', { type: 'boolean', default: false, describe: 'Print the user with its limits as one JSON document' }) as never,
    handler: async (args) => {
      const fields = limitFieldsOf(args);
      if (Object.keys(fields).length === 0) {
        throw new CliError('Nothing to change.', 'Name a limit, e.g. --models a,b or --budget-tokens-month 1000000.', EXIT.usage);
      }
      const user = await withStore(args, ctx.env, async (store) => {
        const { limitsPatchFrom } = await import('../../../server/limits/limits-input.ts');
        const found = await store.users.findByName(args.name);
        if (!found) return undefined;
        try {
          const patch = limitsPatchFrom(fields);
          const updated = await store.users.setLimits(found.id, patch);
          await store.audit.record({ ...cliActor(), action: 'user.limits', target: `user:${found.username}`, details: { changed: patch } });
          return updated;
        } catch (error) {
          if (error instanceof RangeError) throw new CliError(error.message, undefined, EXIT.usage);
          throw error;
        }
      });
      if (!user) throw new CliError(`No user named "${args.name}".`, 'List users with `gwctl admin user list`.');
      await announceRevocation(args, ctx.env, { kind: 'user', id: user.id });
      if (args.json) ctx.stdout(toJson({ name: user.username, id: user.id, limits: user.limits }));
      else ctx.stdout(`${user.username} (all keys): ${describeLimits(user.limits)}.\n`);
      ctx.finish(EXIT.ok);
    },
  };
}
