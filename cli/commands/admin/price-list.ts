// gwctl admin price list [--json] — the entries set with `gwctl admin price set` (the providers
// file's own entries are in that file; the operator API lists both).
import type { CommandModule } from 'yargs';
import { EXIT, type CliContext } from '../../cli-context.ts';
import { formatTable, toJson } from '../../output/format-table.ts';
import { withStore, withStoreOptions, type StoreArgs } from './store-options.ts';

interface Args extends StoreArgs {
  json: boolean;
}

export function priceListCommand(ctx: CliContext): CommandModule<object, Args> {
  return {
    command: 'list',
    describe: 'List the prices set with `gwctl admin price set`',
    builder: (y) => withStoreOptions(y).option('json', { type: 'boolean', default: false, describe: 'Print one JSON document' }) as never,
    handler: async (args) => {
      const prices = await withStore(args, ctx.env, (store) => store.prices.list());
      if (args.json) {
        ctx.stdout(toJson({ prices }));
      } else if (prices.length === 0) {
        ctx.stdout('No prices set. Set one with `gwctl admin price set --model <name> --input 3 --output 15`; a providers file may list more under `prices`.\n');
      } else {
        const image = (value: unknown) => (value === undefined ? '-' : typeof value === 'string' ? value : Object.entries(value as Record<string, string>).map(([s, p]) => `${s}=${p}`).join(','));
        ctx.stdout(
          formatTable(
            ['MODEL', 'PROVIDER', 'FROM', 'CURRENCY', 'PER', 'INPUT', 'OUTPUT', 'CACHE READ', 'CACHE 5M', 'CACHE 1H', 'REASONING', 'IMAGE', 'REQUEST'],
            prices.map((p) => [p.model, p.provider ?? '-', p.from ?? '-', p.currency, p.per, p.input, p.output, p.cacheRead ?? '-', p.cacheWrite5m ?? '-', p.cacheWrite1h ?? '-', p.reasoning ?? '-', image(p.image), p.request ?? '-']),
          ),
        );
      }
      ctx.finish(EXIT.ok);
    },
  };
}
