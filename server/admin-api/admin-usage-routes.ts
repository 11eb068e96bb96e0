// Operator API, usage: hourly (or daily) rows filtered by user, key, model and time range.
import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../errors/gateway-error.ts';
import type { GatewayDeps } from '../gateway-deps.ts';
import type { UsageRow } from '../store/usage-repo.ts';
import { hourBucket } from '../usage/usage-meter.ts';
import { costView } from '../usage/cost-view.ts';
import { authErrors, errorSchema, ref } from './admin-schemas.ts';

interface UsageFilters {
  user?: string;
  key?: string;
  model?: string;
  since?: string;
  until?: string;
  by?: 'hour' | 'day';
}

function hourOf(text: string, param: string): string {
  const at = Date.parse(text);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text) || Number.isNaN(at)) {
    throw new GatewayError(400, 'invalid_request', `\`${param}\` must be an ISO date or date-time such as 2026-11-01 or 2026-11-01T08:00:00Z; got "${text}".`, { param });
  }
  return hourBucket(new Date(at));
}

/** Sums hourly rows into one row per day, user, key and model (rows arrive ordered by hour). */
function perDay(rows: UsageRow[]): UsageRow[] {
  const days = new Map<string, UsageRow>();
  for (const row of rows) {
    const day = row.hour.slice(0, 10);
    const id = `${day}\u0000${row.userId}\u0000${row.keyId}\u0000${row.model}`;
    const sum = days.get(id) ?? { ...row, hour: day, requests: 0, inputTokens: 0, outputTokens: 0, errors: 0, costMicros: 0, unpriced: 0, estimated: 0, providerRequests: 0 };
    sum.requests += row.requests;
    sum.inputTokens += row.inputTokens;
    sum.outputTokens += row.outputTokens;
    sum.errors += row.errors;
    sum.costMicros += row.costMicros;
    sum.unpriced += row.unpriced;
    sum.estimated += row.estimated;
    sum.providerRequests += row.providerRequests;
    days.set(id, sum);
  }
  return [...days.values()];
}

export function registerAdminUsageRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  app.get<{ Querystring: UsageFilters }>(
    '/admin/api/v1/usage',
    {
      schema: {
        tags: ['usage'],
        summary: 'Usage per hour or day, user, key and model',
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            user: { type: 'string', description: 'User name' },
            key: { type: 'string', description: 'Key id' },
            model: { type: 'string', description: 'Public model name' },
            since: { type: 'string', description: 'From this ISO date/time on (UTC hours)' },
            until: { type: 'string', description: 'Before this ISO date/time' },
            by: { type: 'string', enum: ['hour', 'day'], default: 'hour', description: 'The bucket of each row (its `period`)' },
          },
        },
        response: { 200: { type: 'object', properties: { rows: { type: 'array', items: ref('UsageRow') } } }, 400: errorSchema, 404: errorSchema, ...authErrors },
      },
    },
    async (request) => {
      const { user, key, model, since, until, by } = request.query;
      const users = await deps.store.users.list();
      const names = new Map(users.map((u) => [u.id, u.username]));
      const userId = user === undefined ? undefined : users.find((u) => u.username === user)?.id;
      if (user !== undefined && !userId) throw new GatewayError(404, 'user_not_found', `No user named "${user}".`, { param: 'user' });
      const untilHour = until === undefined ? undefined : hourOf(until, 'until');
      await deps.usage.flush().catch(() => undefined);
      let rows = await deps.store.usage.rows({ userId, keyId: key, sinceHour: since === undefined ? undefined : hourOf(since, 'since') });
      rows = rows.filter((r) => (model === undefined || r.model === model) && (untilHour === undefined || r.hour < untilHour));
      if (by === 'day') rows = perDay(rows);
      return {
        rows: rows.map(({ hour, costMicros, unpriced, estimated, providerRequests: _billed, ...r }) => ({
          period: hour,
          ...r,
          user: names.get(r.userId) ?? r.userId,
          ...costView({ costMicros, unpriced }, deps.prices?.currency),
          estimatedRequests: estimated,
        })),
      };
    },
  );
}
