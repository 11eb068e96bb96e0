// gwctl admin token revoke <id> — the operator API refuses the token from the next call on.
import type { CommandModule } from 'yargs';
import { CliError, EXIT, type CliContext } from '../../cli-context.ts';
import { cliActor } from './cli-actor.ts';
import { toJson } from '../../output/format-table.ts';
import { withStore, withStoreOptions, type StoreArgs } from './store-options.ts';

interface Args extends StoreArgs {
  id: string;
  json: boolean;
}

export function tokenRevokeCommand(ctx: CliContext): CommandModule<object, Args> {
  return {
    command: 'revoke <id>',
    describe: 'Revoke an operator API token; calls with it answer 401 from then on',
    builder: (y) =>
      withStoreOptions(y)
        .positional('id', { type: 'string', demandOption: true, describe: 'Token id (see `gwctl admin token list`)' })
        .option('json', { type: 'boolean', default: false, describe: 'Print one JSON document' }) as never,
    handler: async (args) => {
      const revoked = await withStore(args, ctx.env, async (store) => {
        const token = await store.operatorTokens.revoke(args.id);
        if (token) await store.audit.record({ ...cliActor(), action: 'token.revoke', target: `token:${token.id} ${token.hint}` });
        return token;
      });
      if (!revoked) throw new CliError(`No operator token with id "${args.id}".`, 'List tokens with `gwctl admin token list`.');
      if (args.json) ctx.stdout(toJson({ revoked: true, id: revoked.id, hint: revoked.hint }));
      else ctx.stdout(`Revoked operator token ${revoked.id} (${revoked.hint}).\n`);
      ctx.finish(EXIT.ok);
    },
  };
}
