// gwctl admin token list [--json] — operator API tokens, masked.
import type { CommandModule } from 'yargs';
import { EXIT, type CliContext } from '../../cli-context.ts';
import { formatTable, toJson } from '../../output/format-table.ts';
import { withStore, withStoreOptions, type StoreArgs } from './store-options.ts';
import { formatTime } from '../../../core/format-time.ts';

interface Args extends StoreArgs {
  json: boolean;
}

export function tokenListCommand(ctx: CliContext): CommandModule<object, Args> {
  return {
    command: 'list',
    describe: 'List operator API tokens (masked)',
    builder: (y) => withStoreOptions(y).option('json', { type: 'boolean', default: false, describe: 'Print one JSON document' }) as never,
    handler: async (args) => {
      const tokens = await withStore(args, ctx.env, (store) => store.operatorTokens.list());
      if (args.json) ctx.stdout(toJson(tokens));
      else ctx.stdout(formatTable(['ID', 'NAME', 'TOKEN', 'CREATED', 'LAST USED'], tokens.map((t) => [t.id, t.name, t.hint, formatTime(t.createdAt), formatTime(t.lastUsedAt)])));
      ctx.finish(EXIT.ok);
    },
  };
}
