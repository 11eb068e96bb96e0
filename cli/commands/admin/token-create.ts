// gwctl admin token create [--name <label>] [--json] — an operator API token, printed once.
import type { CommandModule } from 'yargs';
import { EXIT, type CliContext } from '../../cli-context.ts';
import { cliActor } from './cli-actor.ts';
import { toJson } from '../../output/format-table.ts';
import { printSecret } from '../../output/print-secret.ts';
import { withStore, withStoreOptions, type StoreArgs } from './store-options.ts';

interface Args extends StoreArgs {
  name?: string;
  json: boolean;
}

export function tokenCreateCommand(ctx: CliContext): CommandModule<object, Args> {
  return {
    command: 'create',
    describe: 'Create an operator API token (for /admin/api/v1) and print it once',
    builder: (y) =>
      withStoreOptions(y)
        .option('name', { type: 'string', describe: 'Label, e.g. the automation that uses it' })
        .option('json', { type: 'boolean', default: false, describe: 'Print {"id","name","token","hint","createdAt"}' }) as never,
    handler: async (args) => {
      const created = await withStore(args, ctx.env, async (store) => {
        const token = await store.operatorTokens.create(args.name);
        await store.audit.record({ ...cliActor(), action: 'token.create', target: `token:${token.id} ${token.hint}`, details: { name: token.name } });
        return token;
      });
      if (args.json) ctx.stdout(toJson(created));
      else {
        printSecret(
          ctx,
          `Created operator token ${created.id}${created.name ? ` "${created.name}"` : ''}.`,
          created.token,
          'This is the only time the token is shown. Send it as "Authorization: Bearer <token>" to /admin/api/v1; revoke it with `gwctl admin token revoke <id>`.',
        );
      }
      ctx.finish(EXIT.ok);
    },
  };
}
