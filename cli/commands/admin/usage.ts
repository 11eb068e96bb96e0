// gwctl admin usage [--user <name>] [--since <hours>] [--by key|session] [--json]: requests, tokens,
// cost and errors per user, key and model, or per client session (requests whose client named one).
// Cost is exact: `costMicros` in micro-units (1e-6) of `currency`; null when a request had no price.
import type { CommandModule } from 'yargs';
import type { SessionUsageRow } from '../../../server/store/usage-repo.ts';
import { hourBucket } from '../../../server/usage/usage-meter.ts';
import { CliError, EXIT, type CliContext } from '../../cli-context.ts';
import { formatTable, toJson } from '../../output/format-table.ts';
import { withStore, withStoreOptions, type StoreArgs } from './store-options.ts';
import { tableCurrency } from './table-currency.ts';
import { costView, type CostView } from '../../../server/usage/cost-view.ts';
import { formatMicros } from '../../../server/pricing/money.ts';

/** "0.046350 USD", or "unknown (3 unpriced)" when a request had no price. */
const costText = (r: CostView) => (r.costMicros === null ? `unknown (${r.unpricedRequests} unpriced)` : `${formatMicros(r.costMicros)}${r.currency ? ` ${r.currency}` : ''}`);

interface Args extends StoreArgs {
  config?: string;
  user?: string;
  since: number;
  by: 'key' | 'session';
  json: boolean;
}

interface KeyTotal {
  user: string;
  keyId: string;
  model: string;
  requests: number;
  inputTokens: number;
  outputTokens: number;
  errors: Record<string, number>;
  /** Requests that ended early (client_aborted, upstream_cut, shutdown_cut), billed up to where they ended. */
  outcomes: Record<string, number>;
  /** Requests by the name the client asked for, when a model alias served them under `model`. */
  requestedAs: Record<string, number>;
  costMicros: number;
  unpriced: number;
  estimated: number;
}

interface SessionTotal {
  sessionId: string;
  user: string;
  keyId: string;
  model: string;
  firstHour: string;
  lastHour: string;
  requests: number;
  inputTokens: number;
  outputTokens: number;
  errors: number;
  costMicros: number;
  unpriced: number;
}

/** Sums hourly session rows into one row per session, user, key and model (rows come ordered by hour). */
function sessionTotals(rows: SessionUsageRow[], users: Map<string, string>): SessionTotal[] {
  const totals = new Map<string, SessionTotal>();
  for (const row of rows) {
    const id = `${row.sessionId}\u0000${row.userId}\u0000${row.keyId}\u0000${row.model}`;
    const total = totals.get(id) ?? { sessionId: row.sessionId, user: users.get(row.userId) ?? row.userId, keyId: row.keyId, model: row.model, firstHour: row.hour, lastHour: row.hour, requests: 0, inputTokens: 0, outputTokens: 0, errors: 0, costMicros: 0, unpriced: 0 };
    total.costMicros += row.costMicros ?? 0;
    total.unpriced += row.unpriced ?? 0;
    total.lastHour = row.hour;
    total.requests += row.requests;
    total.inputTokens += row.inputTokens;
    total.outputTokens += row.outputTokens;
    total.errors += row.errors;
    totals.set(id, total);
  }
  return [...totals.values()];
}

export function usageCommand(ctx: CliContext): CommandModule<object, Args> {
  return {
    command: 'usage',
    describe: 'Show usage per user, key and model',
    builder: (y) =>
      withStoreOptions(y)
        .option('user', { type: 'string', describe: 'Only this user' })
        .option('config', { type: 'string', describe: "Providers file, for its prices' currency when none are set in the database [env GWCTL_CONFIG]" })
        .option('since', { type: 'number', default: 24 * 30, describe: 'Hours to look back' })
        .option('by', { choices: ['key', 'session'] as const, default: 'key' as const, describe: 'Group per user, key and model, or per client session' })
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
        if (args.by === 'session') {
          const currency = await tableCurrency(store, ctx.env, args.config);
          const sessions = sessionTotals(await store.usage.sessionRows({ userId, sinceHour }), users);
          return { sinceHour, by: args.by, rows: sessions.map(({ costMicros, unpriced, ...total }) => ({ ...total, ...costView({ costMicros, unpriced }, currency) })) };
        }
        const rows = await store.usage.rows({ userId, sinceHour });
        const errors = await store.usage.errorsByStatus({ userId, sinceHour });
        const outcomes = await store.usage.outcomes({ userId, sinceHour });
        const requested = await store.usage.requestedModels({ userId, sinceHour });
        const totals = new Map<string, KeyTotal>();
        for (const row of rows) {
          const id = `${row.userId}\u0000${row.keyId}\u0000${row.model}`;
          const total = totals.get(id) ?? { user: users.get(row.userId) ?? row.userId, keyId: row.keyId, model: row.model, requests: 0, inputTokens: 0, outputTokens: 0, errors: {}, outcomes: {}, requestedAs: {}, costMicros: 0, unpriced: 0, estimated: 0 };
          total.requests += row.requests;
          total.costMicros += row.costMicros;
          total.unpriced += row.unpriced;
          total.estimated += row.estimated;
          total.inputTokens += row.inputTokens;
          total.outputTokens += row.outputTokens;
          totals.set(id, total);
        }
        for (const e of errors) {
          const total = totals.get(`${e.userId}\u0000${e.keyId}\u0000${e.model}`);
          if (total) total.errors[e.status] = (total.errors[e.status] ?? 0) + e.count;
        }
        for (const o of outcomes) {
          const total = totals.get(`${o.userId}\u0000${o.keyId}\u0000${o.model}`);
          if (total) total.outcomes[o.outcome] = (total.outcomes[o.outcome] ?? 0) + o.count;
        }
        for (const r of requested) {
          const total = totals.get(`${r.userId}\u0000${r.keyId}\u0000${r.model}`);
          if (total) total.requestedAs[r.requestedModel] = (total.requestedAs[r.requestedModel] ?? 0) + r.count;
        }
        const currency = await tableCurrency(store, ctx.env, args.config);
        return {
          sinceHour,
          by: args.by,
          rows: [...totals.values()].map(({ costMicros, unpriced, estimated, ...total }) => ({ ...total, ...costView({ costMicros, unpriced }, currency), estimatedRequests: estimated })),
        };
      });
      if (args.json) {
        ctx.stdout(toJson(report));
      } else if (report.by === 'session') {
        ctx.stdout(`Usage per client session since ${report.sinceHour}\n`);
        const rows = report.rows as Array<Omit<SessionTotal, 'costMicros' | 'unpriced'> & CostView>;
        ctx.stdout(
          rows.length === 0
            ? 'No request named a client session in this period (clients such as Claude Code send one in x-claude-code-session-id).\n'
            : formatTable(
                ['SESSION', 'USER', 'KEY', 'MODEL', 'FIRST HOUR', 'LAST HOUR', 'REQUESTS', 'INPUT TOKENS', 'OUTPUT TOKENS', 'COST', 'ERRORS'],
                rows.map((r) => [r.sessionId, r.user, r.keyId || '(web)', r.model, r.firstHour, r.lastHour, r.requests, r.inputTokens, r.outputTokens, costText(r), r.errors]),
              ),
        );
      } else {
        ctx.stdout(`Usage since ${report.sinceHour}\n`);
        const errorsText = (e: Record<string, number>) => Object.entries(e).map(([s, c]) => `${s}×${c}`).join(' ') || '-';
        ctx.stdout(
          formatTable(
            ['USER', 'KEY', 'MODEL', 'ASKED AS', 'REQUESTS', 'INPUT TOKENS', 'OUTPUT TOKENS', 'COST', 'ERRORS', 'ENDED EARLY'],
            (report.rows as Array<Omit<KeyTotal, 'costMicros' | 'unpriced' | 'estimated'> & CostView>).map((r) => [r.user, r.keyId || '(web)', r.model, errorsText(r.requestedAs), r.requests, r.inputTokens, r.outputTokens, costText(r), errorsText(r.errors), errorsText(r.outcomes)]),
          ),
        );
      }
      ctx.finish(EXIT.ok);
    },
  };
}
