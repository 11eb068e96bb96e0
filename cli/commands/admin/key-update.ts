// gwctl admin key update <id> [limit flags] [--json] — changes only the limits named; running
// gateways apply the change from the next request on (like a deletion, on every instance).
import type { CommandModule } from 'yargs';
import { CliError, EXIT, type CliContext } from '../../cli-context.ts';
import { cliActor } from './cli-actor.ts';
import { toJson } from '../../output/format-table.ts';
import { describeLimits, limitFieldsOf, withLimitOptions, type LimitArgs } from './limit-options.ts';
import { announceRevocation, withStore, withStoreOptions, type StoreArgs } from './store-options.ts';

interface Args extends StoreArgs, LimitArgs {
  id: string;
  json: boolean;
}

export function keyUpdateCommand(ctx: CliContext): CommandModule<object, Args> {
  return {
    command: 'update <id>',
    describe: "Change a key's limits (expiry, models, rate limit, budgets)",
    builder: (y) =>
      withLimitOptions(withStoreOptions(y))
        .positional('id', { type: 'string', demandOption: true, describe: 'Key id (see `gwctl admin key list`)' })
        .option('json', { type: 'boolean', default: false, describe: 'Print the key with its limits as one JSON document' }) as never,
    handler: async (args) => {
      const fields = limitFieldsOf(args);
      if (Object.keys(fields).length === 0) {
        throw new CliError('Nothing to change.', 'Name a limit, e.g. --expires 30d, --models a,b, --rate-limit 60 or --budget-tokens-day 100000.', EXIT.usage);
      }
      const updated = await withStore(args, ctx.env, async (store) => {
        const { limitsPatchFrom } = await import('../../../server/limits/limits-input.ts');
        try {
          const patch = limitsPatchFrom(fields);
          if (patch.models) {
            const { announcedServedModels, checkUsableModels } = await import('../../../server/limits/account-bound.ts');
            const key = await store.keys.findById(args.id);
            const owner = key && (await store.users.findById(key.userId));
            // The served models are those the gateway announced when it started on this database.
            if (owner) checkUsableModels(patch.models, owner.limits, await announcedServedModels(store));
          }
          const updated = await store.keys.updateLimits(args.id, patch);
          if (updated) await store.audit.record({ ...cliActor(), action: 'key.update', target: `key:${updated.id} ${updated.hint}`, details: { changed: patch } });
          return updated;
        } catch (error) {
          if (error instanceof RangeError) throw new CliError(error.message, undefined, EXIT.usage);
          throw error;
        }
      });
      if (!updated) throw new CliError(`No key with id "${args.id}".`, 'List keys with `gwctl admin key list`.');
      await announceRevocation(args, ctx.env, { kind: 'key', id: updated.id });
      if (args.json) ctx.stdout(toJson({ id: updated.id, name: updated.name, hint: updated.hint, limits: updated.limits }));
      else ctx.stdout(`Key ${updated.id} (${updated.hint}): ${describeLimits(updated.limits)}.\n`);
      ctx.finish(EXIT.ok);
    },
  };
}
