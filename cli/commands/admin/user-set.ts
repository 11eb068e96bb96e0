// gwctl admin user set <name> [--role R] [--models …] [--budget-…] [--json] — the role, and the limits of all of a user's keys
// (models a key may narrow but not widen; budgets counted over all the user's keys together).
// Running gateways apply them from the next request on, on every instance.
import type { CommandModule } from 'yargs';
import { ROLES, type Role } from '../../../server/accounts/roles.ts';
import { CliError, EXIT, type CliContext } from '../../cli-context.ts';
import { cliActor } from './cli-actor.ts';
import { toJson } from '../../output/format-table.ts';
import { describeLimits, limitFieldsOf, withUserLimitOptions, type LimitArgs } from './limit-options.ts';
import { announceRevocation, withStore, withStoreOptions, type StoreArgs } from './store-options.ts';

interface Args extends StoreArgs, LimitArgs {
  name: string;
  role?: Role;
  json: boolean;
}

export function userSetCommand(ctx: CliContext): CommandModule<object, Args> {
  return {
    command: 'set <name>',
    describe: "Set a user's limits: allowed models and budgets for all their keys",
    builder: (y) =>
      withUserLimitOptions(withStoreOptions(y))
        .positional('name', { type: 'string', demandOption: true, describe: 'User name (see `gwctl admin user list`)' })
        .option('role', { choices: ROLES, describe: 'Change the role: operator (changes anything), viewer (reads the operator pages and API, changes nothing), member' })
        .option('json', { type: 'boolean', default: false, describe: 'Print the user with its limits as one JSON document' }) as never,
    handler: async (args) => {
      const fields = limitFieldsOf(args);
      const limitsGiven = Object.keys(fields).length > 0;
      if (!limitsGiven && args.role === undefined) {
        throw new CliError('Nothing to change.', 'Name a limit, e.g. --models a,b or --budget-tokens-month 1000000, or a role with --role.', EXIT.usage);
      }
      const user = await withStore(args, ctx.env, async (store) => {
        const { limitsPatchFrom } = await import('../../../server/limits/limits-input.ts');
        let found = await store.users.findByName(args.name);
        if (!found) return undefined;
        if (args.role !== undefined) {
          const { setUserRole } = await import('../../../server/accounts/account-actions.ts');
          const { AccountRuleError } = await import('../../../server/accounts/account-rules.ts');
          try {
            found = (await setUserRole(store, found, args.role, cliActor())).user;
          } catch (error) {
            if (error instanceof AccountRuleError) throw new CliError(error.message, error.remedy);
            throw error;
          }
        }
        if (!limitsGiven) return found;
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
      if (args.json) ctx.stdout(toJson({ name: user.username, id: user.id, role: user.role, limits: user.limits }));
      else ctx.stdout(`${args.role !== undefined ? `${user.username}: role ${user.role}.\n` : ''}${user.username} (all keys): ${describeLimits(user.limits)}.\n`);
      ctx.finish(EXIT.ok);
    },
  };
}
