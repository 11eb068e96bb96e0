// gwctl admin key delete <id> — requests with the key answer 401 from the next one on.
import type { CommandModule } from 'yargs';
import { CliError, EXIT, type CliContext } from '../../cli-context.ts';
import { cliActor } from './cli-actor.ts';
import { toJson } from '../../output/format-table.ts';
import { announceRevocation, withStore, withStoreOptions, type StoreArgs } from './store-options.ts';

interface Args extends StoreArgs {
  id: string;
  json: boolean;
}

export function keyDeleteCommand(ctx: CliContext): CommandModule<object, Args> {
  return {
    command: 'delete <id>',
    describe: 'Delete an API key; requests with it answer 401 from then on',
    builder: (y) =>
      withStoreOptions(y)
        .positional('id', { type: 'string', demandOption: true, describe: 'Key id (see `gwctl admin key list`)' })
        .option('json', { type: 'boolean', default: false, describe: 'Print one JSON document' }) as never,
    handler: async (args) => {
      const deleted = await withStore(args, ctx.env, async (store) => {
        const key = await store.keys.deleteById(args.id);
        if (key) await store.audit.record({ ...cliActor(), action: 'key.delete', target: `key:${key.id} ${key.hint}` });
        return key;
      });
      if (!deleted) throw new CliError(`No key with id "${args.id}".`, 'List keys with `gwctl admin key list`.');
      await announceRevocation(args, ctx.env, { kind: 'key', id: deleted.id });
      if (args.json) ctx.stdout(toJson({ deleted: true, id: deleted.id, hint: deleted.hint }));
      else ctx.stdout(`Deleted key ${deleted.id} (${deleted.hint}). Requests with it now answer 401.\n`);
      ctx.finish(EXIT.ok);
    },
  };
}
