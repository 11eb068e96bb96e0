// gwctl admin request <request-id> [--json] — what happened to one request and why: the support
// desk's verdict from the request log, with the operator's remedy and the one to send the user.
import type { CommandModule } from 'yargs';
import { CliError, EXIT, type CliContext } from '../../cli-context.ts';
import { toJson } from '../../output/format-table.ts';
import { renderRequestVerdict } from '../../output/render-support.ts';
import { explainRequest } from '../../../server/support/explain-request.ts';
import { REQUEST_LOG_RETENTION_DAYS } from '../../../server/usage/request-log.ts';
import { withStore, withStoreOptions, type StoreArgs } from './store-options.ts';

interface Args extends StoreArgs {
  id: string;
  json: boolean;
}

export function requestCommand(ctx: CliContext): CommandModule<object, Args> {
  return {
    command: 'request <id>',
    describe: 'Explain one request by its request id (x-request-id or request-id of the answer): cause and remedies',
    builder: (y) =>
      withStoreOptions(y)
        .positional('id', { type: 'string', demandOption: true, describe: 'The request id the client saw (req_…), or the upstream provider\'s' })
        .option('json', { type: 'boolean', default: false, describe: 'Print one JSON document' }) as never,
    handler: async (args) => {
      const verdict = await withStore(args, ctx.env, (store) => explainRequest(store, args.id, { publicUrl: ctx.env.GWCTL_PUBLIC_URL }));
      if (!verdict) {
        throw new CliError(
          `No request with id "${args.id}" in the request log.`,
          `The log keeps ${REQUEST_LOG_RETENTION_DAYS} days and is written about once a second: check the id (the x-request-id or request-id header of the answer, or the id in its error body) and that this is the gateway's database (--database-url).`,
        );
      }
      ctx.stdout(args.json ? toJson(verdict) : renderRequestVerdict(verdict));
      ctx.finish(EXIT.ok);
    },
  };
}
