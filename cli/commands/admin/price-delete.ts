// gwctl admin price delete --model <name|glob> [--provider …] [--from …] — removes one entry set with
// `gwctl admin price set` (audited). Recorded cost never changes.
import type { CommandModule } from 'yargs';
import { CliError, EXIT, type CliContext } from '../../cli-context.ts';
import { toJson } from '../../output/format-table.ts';
import { cliActor } from './cli-actor.ts';
import { withStore, withStoreOptions, type StoreArgs } from './store-options.ts';

interface Args extends StoreArgs {
  model: string;
  provider?: string;
  from?: string;
  json: boolean;
}

export function priceDeleteCommand(ctx: CliContext): CommandModule<object, Args> {
  return {
    command: 'delete',
    describe: 'Delete a price set with `gwctl admin price set`',
    builder: (y) =>
      withStoreOptions(y)
        .option('model', { type: 'string', demandOption: true, describe: 'The model (or glob) as it was set' })
        .option('provider', { type: 'string', describe: 'The provider it was narrowed to, if any' })
        .option('from', { type: 'string', describe: 'Its from date, if any' })
        .option('json', { type: 'boolean', default: false, describe: 'Print one JSON document' }) as never,
    handler: async (args) => {
      const key = { model: args.model, provider: args.provider || undefined, from: args.from || undefined };
      const deleted = await withStore(args, ctx.env, async (store) => {
        const { deletePrice } = await import('../../../server/pricing/price-changes.ts');
        return deletePrice(store, key, cliActor());
      });
      if (!deleted) throw new CliError(`No price set for ${key.model}${key.provider ? ` (provider ${key.provider})` : ''}${key.from ? ` from ${key.from}` : ''}.`, 'List them with `gwctl admin price list`.');
      if (args.json) ctx.stdout(toJson({ deleted: true, ...key }));
      else ctx.stdout(`Deleted the price of ${key.model}.\n`);
      ctx.finish(EXIT.ok);
    },
  };
}
