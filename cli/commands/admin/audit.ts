// gwctl admin audit [--limit N] [--action key.delete] [--json] — who changed which key, user or
// operator token, when and from where (newest first). Keys appear by id and masked hint only.
import type { CommandModule } from 'yargs';
import { EXIT, type CliContext } from '../../cli-context.ts';
import { formatTable, toJson } from '../../output/format-table.ts';
import { withStore, withStoreOptions, type StoreArgs } from './store-options.ts';
import { formatTime } from '../../../core/format-time.ts';

interface Args extends StoreArgs {
  limit: number;
  action?: string;
  json: boolean;
}

export function auditCommand(ctx: CliContext): CommandModule<object, Args> {
  return {
    command: 'audit',
    describe: 'Show the audit log of key, user and operator-token changes',
    builder: (y) =>
      withStoreOptions(y)
        .option('limit', { type: 'number', default: 100, describe: 'Newest entries to show' })
        .option('action', { type: 'string', describe: 'Only this action, e.g. key.create, key.update, key.delete, user.disable, user.limits, token.revoke' })
        .option('json', { type: 'boolean', default: false, describe: 'Print one JSON document' }) as never,
    handler: async (args) => {
      const entries = await withStore(args, ctx.env, (store) => store.audit.list({ limit: Math.max(1, Math.floor(args.limit)), action: args.action }));
      if (args.json) ctx.stdout(toJson(entries));
      else ctx.stdout(formatTable(['WHEN', 'WHO', 'FROM', 'ACTION', 'ON', 'DETAILS'], entries.map((e) => [formatTime(e.at, { seconds: true }), e.actor, e.address, e.action, e.target, e.details ? JSON.stringify(e.details) : ''])));
      ctx.finish(EXIT.ok);
    },
  };
}
