// gwctl admin key find <id|hint|fingerprint> [--json] — a key's owner, state (active, expired,
// owner disabled, deleted when and by whom), limits, last use and recent failures by cause; and
// values sent that no key ever had, by their masked hint or fingerprint.
import type { CommandModule } from 'yargs';
import { EXIT, type CliContext } from '../../cli-context.ts';
import { toJson } from '../../output/format-table.ts';
import { renderKeyFind } from '../../output/render-support.ts';
import { findKey } from '../../../server/support/find-key.ts';
import { withStore, withStoreOptions, type StoreArgs } from './store-options.ts';

interface Args extends StoreArgs {
  query: string;
  json: boolean;
}

export function keyFindCommand(ctx: CliContext): CommandModule<object, Args> {
  return {
    command: 'find <query>',
    describe: 'Find a key by id, masked hint (sk-…a1b2) or fingerprint: owner, state, limits, recent failures',
    builder: (y) =>
      withStoreOptions(y)
        .positional('query', { type: 'string', demandOption: true, describe: 'Key id, masked hint as the user sees it (sk-…a1b2 or sk-...a1b2), or a 16-hex fingerprint from the request log' })
        .option('json', { type: 'boolean', default: false, describe: 'Print one JSON document' }) as never,
    handler: async (args) => {
      const result = await withStore(args, ctx.env, (store) => findKey(store, String(args.query)));
      if (result.kind === 'key value') ctx.stderr('Note: that is a whole key value; it is only hashed here, but it is now in your shell history. Next time give its masked form (sk-…a1b2).\n');
      ctx.stdout(args.json ? toJson(result) : renderKeyFind(result));
      ctx.finish(result.keys.length + result.refusedValues.length > 0 ? EXIT.ok : EXIT.failed);
    },
  };
}
