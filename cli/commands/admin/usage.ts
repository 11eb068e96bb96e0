// gwctl admin usage [--user <name>] [--since <hours>] [--json]: requests, tokens and errors per user, key and model.
import type { CommandModule } from 'yargs';
import { hourBucket } from '../../../server/usage/usage-meter.ts';
import { CliError, EXIT, type CliContext } from '../../cli-context.ts';
import { formatTable, toJson } from '../../output/format-table.ts';
import { withStore, withStoreOptions, type StoreArgs } from './store-options.ts';

interface Args extends StoreArgs {
  user?: string;
  since: number;
  json: boolean;
}

export function usageCommand(ctx: CliContext): CommandModule<object, Args> {
  return {
    command: 'usage',
    describe: 'Show usage per user, key and model',
    builder: (y) =>
      withStoreOptions(y)
        .option('user', { type: 'string', describe: 'Only this user' })
        .option('since', { type: 'number', default: 24 * 30, describe: 'Hours to look back' })
        .option('json', { type: 'boolean', default: false, describe: 'Print one JSON document' }) as never,
    handler: async (args) => {
      if (!Number.isFinite(args.since) || args.since <= 0) throw new CliError('--since must be a positive number of hours.', undefined, EXIT.usage);
      const sinceHour = hourBucket(new Date(Date.now() - args.since * 3600_000));
      const report = await withStore(args, ctx.env, async (store) => {
        const users = new Map((await store.users.list()).map((u) => [u.id, u.username]));
        let userId: string | undefined;
        if (args.user) {
          userId = (await store.users.findByName(args.user))?.id;
          if (!userId) throw new CliError(`No user named "${args.user}".`, 'Check `gwctl admin user list`.');
        }
        const rows = await store.usage.rows({ userId, sinceHour });
        const errors = await store.usage.errorsByStatus({ userId, sinceHour });
        const totals = new Map<string, { user: string; keyId: string; model: string; requests: number; inputTokens: number; outputTokens: number; errors: Record<string, number> }>();
        for (const row of rows) {
          const id = `${row.userId}\u0000${row.keyId}\u0000${row.model}`;
          const total = totals.get(id) ?? { user: users.get(row.userId) ?? row.userId, keyId: row.keyId, model: row.model, requests: 0, inputTokens: 0, outputTokens: 0, errors: {} };
          total.requests += row.requests;
          total.inputTokens += row.inputTokens;
          total.outputTokens += row.outputTokens;
          totals.set(id, total);
        }
        for (const e of errors) {
          const total = totals.get(`${e.userId}\u0000${e.keyId}\u0000${e.model}`);
          if (total) total.errors[e.status] = (total.errors[e.status] ?? 0) + e.count;
        }
        return { sinceHour, rows: [...totals.values()] };
      });
      if (args.json) {
        ctx.stdout(toJson(report));
      } else {
        ctx.stdout(`Usage since ${report.sinceHour}\n`);
        const errorsText = (e: Record<string, number>) => Object.entries(e).map(([s, c]) => `${s}×${c}`).join(' ') || '-';
        ctx.stdout(
          formatTable(
            ['USER', 'KEY', 'MODEL', 'REQUESTS', 'INPUT TOKENS', 'OUTPUT TOKENS', 'ERRORS'],
            report.rows.map((r) => [r.user, r.keyId || '(web)', r.model, r.requests, r.inputTokens, r.outputTokens, errorsText(r.errors)]),
          ),
        );
      }
      ctx.finish(EXIT.ok);
    },
  };
}
