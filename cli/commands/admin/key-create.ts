// gwctl admin key create --user <name> [--name <label>] [limit flags] [--json]
// The only place outside the creation response where a key's full value is printed.
import type { CommandModule } from 'yargs';
import { CliError, EXIT, type CliContext } from '../../cli-context.ts';
import { cliActor } from './cli-actor.ts';
import { toJson } from '../../output/format-table.ts';
import { printSecret } from '../../output/print-secret.ts';
import { describeLimits, limitFieldsOf, withLimitOptions, type LimitArgs } from './limit-options.ts';
import { withStore, withStoreOptions, type StoreArgs } from './store-options.ts';

interface Args extends StoreArgs, LimitArgs {
  user: string;
  name?: string;
  json: boolean;
}

export function keyCreateCommand(ctx: CliContext): CommandModule<object, Args> {
  return {
    command: 'create',
    describe: 'Create an API key for a user and print its value once',
    builder: (y) =>
      withLimitOptions(withStoreOptions(y))
        .option('user', { type: 'string', demandOption: true, describe: 'Owner of the key' })
        .option('name', { type: 'string', describe: 'Optional label so the owner can recognise the key' })
        .option('json', { type: 'boolean', default: false, describe: 'Print {"id","name","key","hint","createdAt","limits"}' }) as never,
    handler: async (args) => {
      const created = await withStore(args, ctx.env, async (store) => {
        const user = await store.users.findByName(args.user);
        if (!user) throw new CliError(`No user named "${args.user}".`, 'Create it with `gwctl admin user add <name>` or check `gwctl admin user list`.');
        try {
          const { applyPatch, NO_LIMITS } = await import('../../../server/limits/key-limits.ts');
          const { limitsPatchFrom } = await import('../../../server/limits/limits-input.ts');
          const { announcedServedModels, checkUsableModels } = await import('../../../server/limits/account-bound.ts');
          const limits = applyPatch(NO_LIMITS, limitsPatchFrom(limitFieldsOf(args)));
          // The served models are those the gateway announced when it started on this database.
          checkUsableModels(limits.models, user.limits, limits.models ? await announcedServedModels(store) : undefined);
          const created = await store.keys.create(user.id, args.name, limits);
          await store.audit.record({ ...cliActor(), action: 'key.create', target: `key:${created.id} ${created.hint}`, details: { user: user.username, name: created.name, limits: created.limits } });
          return created;
        } catch (error) {
          if (error instanceof RangeError) throw new CliError(error.message, undefined, EXIT.usage);
          throw error;
        }
      });
      if (args.json) {
        ctx.stdout(toJson({ id: created.id, name: created.name, key: created.key, hint: created.hint, createdAt: created.createdAt, limits: created.limits }));
      } else {
        printSecret(
          ctx,
          `Created key ${created.id}${created.name ? ` "${created.name}"` : ''} for ${args.user} (${describeLimits(created.limits)}).`,
          created.key,
          'This is the only time the full key is shown. If it is lost, delete the key and create a new one.',
        );
      }
      ctx.finish(EXIT.ok);
    },
  };
}
