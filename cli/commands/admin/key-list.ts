// gwctl admin key list [--user <name>] [--json] — masked hints only.
import type { CommandModule } from 'yargs';
import { CliError, EXIT, type CliContext } from '../../cli-context.ts';
import { formatTable, toJson } from '../../output/format-table.ts';
import { describeLimits } from './limit-options.ts';
import { withStore, withStoreOptions, type StoreArgs } from './store-options.ts';
import { formatTime } from '../../../core/format-time.ts';

interface Args extends StoreArgs {
  user?: string;
  json: boolean;
}

export function keyListCommand(ctx: CliContext): CommandModule<object, Args> {
  return {
    command: 'list',
    describe: 'List API keys (masked)',
    builder: (y) =>
      withStoreOptions(y)
        .option('user', { type: 'string', describe: 'Only this user\'s keys' })
        .option('json', { type: 'boolean', default: false, describe: 'Print one JSON document' }) as never,
    handler: async (args) => {
      const rows = await withStore(args, ctx.env, async (store) => {
        const users = new Map((await store.users.list()).map((u) => [u.id, u.username]));
        let keys;
        if (args.user) {
          const user = await store.users.findByName(args.user);
          if (!user) throw new CliError(`No user named "${args.user}".`, 'Check `gwctl admin user list`.');
          keys = await store.keys.listForUser(user.id);
        } else {
          keys = await store.keys.listAll();
        }
        return keys.map((k) => ({ id: k.id, user: users.get(k.userId) ?? k.userId, name: k.name, hint: k.hint, createdAt: k.createdAt, lastUsedAt: k.lastUsedAt, limits: k.limits }));
      });
      if (args.json) ctx.stdout(toJson(rows));
      else ctx.stdout(formatTable(['ID', 'USER', 'NAME', 'KEY', 'CREATED', 'LAST USED', 'LIMITS'], rows.map((r) => [r.id, r.user, r.name, r.hint, formatTime(r.createdAt), formatTime(r.lastUsedAt), describeLimits(r.limits)])));
      ctx.finish(EXIT.ok);
    },
  };
}
