// gwctl admin price set --model <name|glob> --currency USD --input 3 --output 15 [--cache-read …]
// [--cache-write-5m …] [--cache-write-1h …] [--reasoning …] [--image …] [--request …] [--per …]
// [--provider …] [--from YYYY-MM-DD] [--json] — sets one entry of the price table (audited).
// Running gateways price usage recorded from then on with it, within a usage flush interval.
import type { CommandModule } from 'yargs';
import { CliError, EXIT, type CliContext } from '../../cli-context.ts';
import { toJson } from '../../output/format-table.ts';
import { cliActor } from './cli-actor.ts';
import { withStore, withStoreOptions, type StoreArgs } from './store-options.ts';

interface Args extends StoreArgs {
  model: string;
  provider?: string;
  currency: string;
  per?: string;
  input?: string;
  output?: string;
  cacheRead?: string;
  cacheWrite5m?: string;
  cacheWrite1h?: string;
  reasoning?: string;
  image?: string;
  request?: string;
  from?: string;
  json: boolean;
}

/** `0.04`, or per size: `1024x1024=0.04,default=0.02`. */
function imageOption(text: string): string | Record<string, string> {
  if (!text.includes('=')) return text;
  return Object.fromEntries(text.split(',').map((pair) => pair.split('=', 2).map((part) => part.trim()) as [string, string]));
}

export function priceSetCommand(ctx: CliContext): CommandModule<object, Args> {
  return {
    command: 'set',
    describe: 'Set the price of a model (replaces the entry of the same model, provider and --from date); recorded cost never changes',
    builder: (y) =>
      withStoreOptions(y)
        .option('model', { type: 'string', demandOption: true, describe: 'Public model name or glob (claude-sonnet-*)' })
        .option('provider', { type: 'string', describe: 'Only requests served by this provider' })
        .option('currency', { type: 'string', default: 'USD', describe: 'ISO code; one currency for the whole table' })
        .option('per', { type: 'string', describe: 'Tokens the token prices are for [default 1000000]' })
        .option('input', { type: 'string', describe: 'Price of input tokens (not cached)' })
        .option('output', { type: 'string', describe: 'Price of output tokens' })
        .option('cache-read', { type: 'string', describe: 'Price of tokens read from the prompt cache' })
        .option('cache-write-5m', { type: 'string', describe: 'Price of five-minute cache writes' })
        .option('cache-write-1h', { type: 'string', describe: 'Price of one-hour cache writes' })
        .option('reasoning', { type: 'string', describe: 'Price of reasoning tokens, when the upstream reports them apart' })
        .option('image', { type: 'string', describe: 'Per image generated: 0.04, or by size: 1024x1024=0.04,default=0.02' })
        .option('request', { type: 'string', describe: 'Per request' })
        .option('from', { type: 'string', describe: 'Date the price takes effect (YYYY-MM-DD, UTC)' })
        .option('json', { type: 'boolean', default: false, describe: 'Print the entry as one JSON document' }) as never,
    handler: async (args) => {
      const raw: Record<string, unknown> = {
        model: args.model,
        provider: args.provider,
        currency: args.currency,
        per: args.per,
        input: args.input,
        output: args.output,
        cacheRead: args.cacheRead,
        cacheWrite5m: args.cacheWrite5m,
        cacheWrite1h: args.cacheWrite1h,
        reasoning: args.reasoning,
        image: args.image === undefined ? undefined : imageOption(args.image),
        request: args.request,
        from: args.from,
      };
      for (const field of Object.keys(raw)) if (raw[field] === undefined) delete raw[field];
      const result = await withStore(args, ctx.env, async (store) => {
        const { setPrice } = await import('../../../server/pricing/price-changes.ts');
        const { PriceInputError } = await import('../../../server/pricing/price-input.ts');
        try {
          return await setPrice(store, raw, cliActor());
        } catch (error) {
          if (error instanceof PriceInputError) throw new CliError(`Price not set: ${error.message}.`, 'See `gwctl admin price set --help`.', EXIT.usage);
          throw error;
        }
      });
      if (args.json) ctx.stdout(toJson(result));
      else ctx.stdout(`${result.replaced ? 'Replaced' : 'Set'} the price of ${result.price.model}${result.price.provider ? ` (provider ${result.price.provider})` : ''}${result.price.from ? ` from ${result.price.from}` : ''}.\n`);
      ctx.finish(EXIT.ok);
    },
  };
}
