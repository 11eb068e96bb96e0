// gwctl admin user show <name> [--json] — one account for support: state, limits, keys (live and
// deleted) and recent failures by cause.
import type { CommandModule } from 'yargs';
import { CliError, EXIT, type CliContext } from '../../cli-context.ts';
import { toJson } from '../../output/format-table.ts';
import { renderUserOverview } from '../../output/render-support.ts';
import { userOverview } from '../../../server/support/user-overview.ts';
import { withStore, withStoreOptions, type StoreArgs } from './store-options.ts';

interface Args extends StoreArgs {
  name: string;
  json: boolean;
}

export function userShowCommand(ctx: CliContext): CommandModule<object, Args> {
  return {
    command: 'show <name>',
    describe: "Show one user: state, limits, keys and recent failures by cause",
    builder: (y) =>
      withStoreOptions(y)
        .positional('name', { type: 'string', demandOption: true, describe: 'User name' })
        .option('json', { type: 'boolean', default: false, describe: 'Print one JSON document' }) as never,
    handler: async (args) => {
      const overview = await withStore(args, ctx.env, (store) => userOverview(store, String(args.name)));
      if (!overview) throw new CliError(`No user named "${args.name}".`, 'List users with `gwctl admin user list`.');
      ctx.stdout(args.json ? toJson(overview) : renderUserOverview(overview));
      ctx.finish(EXIT.ok);
    },
  };
}
