// gwctl admin user list [--json]
import type { CommandModule } from 'yargs';
import { EXIT, type CliContext } from '../../cli-context.ts';
import { formatTable, toJson } from '../../output/format-table.ts';
import { describeLimits } from './limit-options.ts';
import { withStore, withStoreOptions, type StoreArgs } from './store-options.ts';
import { formatTime } from '../../../core/format-time.ts';

interface Args extends StoreArgs {
  json: boolean;
}

export function userListCommand(ctx: CliContext): CommandModule<object, Args> {
  return {
    command: 'list',
    describe: 'List users',
    builder: (y) => withStoreOptions(y).option('json', { type: 'boolean', default: false, describe: 'Print one JSON document' }) as never,
    handler: async (args) => {
      const users = await withStore(args, ctx.env, (store) => store.users.list());
      if (args.json) ctx.stdout(toJson(users));
      else ctx.stdout(formatTable(['NAME', 'ID', 'ROLE', 'STATE', 'CREATED', 'LIMITS'], users.map((u) => [u.username, u.id, u.role, u.disabled ? 'disabled' : 'active', formatTime(u.createdAt), describeLimits(u.limits)])));
      ctx.finish(EXIT.ok);
    },
  };
}
