// Hourly usage aggregates: batched upserts from the in-memory meter, and reads for reports.
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.ts';
import { writeJournalMark, type JournalMark } from './usage-journal-marks.ts';

export interface UsageBucketKey {
  hour: string;
  userId: string;
  keyId: string;
  model: string;
}

export interface UsageDelta extends UsageBucketKey {
  requests: number;
  inputTokens: number;
  outputTokens: number;
  errors: number;
  errorsByStatus: Record<number, number>;
  /** Requests that did not complete normally, by outcome (client_aborted, upstream_cut, shutdown_cut). */
  outcomes?: Record<string, number>;
  /** Requests by the name the client asked for, when an alias served them under `model`. */
  requested?: Record<string, number>;
  /** Cost of the priced requests, in micro-units of the price table's currency (exact integer). */
  costMicros?: number;
  /** Requests that reached a provider for a model without a price: their cost is unknown. */
  unpriced?: number;
  /** Requests whose tokens (and cost) were estimated. */
  estimated?: number;
  /** Requests that reached a provider (what request budgets count). */
  providerRequests?: number;
}

/** Usage of one client session in one hour (requests that carried a session id). */
export interface SessionUsageDelta extends UsageBucketKey {
  sessionId: string;
  requests: number;
  inputTokens: number;
  outputTokens: number;
  errors: number;
  /** As in UsageDelta: micro-units of the priced requests, and the requests without a price. */
  costMicros?: number;
  unpriced?: number;
}

export type SessionUsageRow = SessionUsageDelta;

export interface UsageRow extends UsageBucketKey {
  requests: number;
  inputTokens: number;
  outputTokens: number;
  errors: number;
  costMicros: number;
  unpriced: number;
  estimated: number;
  providerRequests: number;
}

export interface UsageQuery {
  userId?: string;
  keyId?: string;
  sinceHour?: string;
}

export class UsageRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Adds a batch of deltas in one transaction, so a flush is all or nothing; `mark`, how far the
   * usage journal's entries are in this batch, is written in the same transaction.
   */
  async apply(deltas: UsageDelta[], lastUsed: Map<string, string>, sessions: SessionUsageDelta[] = [], mark?: JournalMark): Promise<void> {
    if (deltas.length === 0 && lastUsed.size === 0 && sessions.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      if (mark) await writeJournalMark(trx, mark);
      for (const d of deltas) {
        await trx
          .insertInto('usage')
          .values({
            hour: d.hour,
            user_id: d.userId,
            key_id: d.keyId,
            model: d.model,
            requests: d.requests,
            input_tokens: d.inputTokens,
            output_tokens: d.outputTokens,
            errors: d.errors,
            cost_micros: d.costMicros ?? 0,
            unpriced_requests: d.unpriced ?? 0,
            estimated_requests: d.estimated ?? 0,
            provider_requests: d.providerRequests ?? 0,
          })
          .onConflict((oc) =>
            oc.columns(['hour', 'user_id', 'key_id', 'model']).doUpdateSet({
              requests: sql`usage.requests + excluded.requests`,
              input_tokens: sql`usage.input_tokens + excluded.input_tokens`,
              output_tokens: sql`usage.output_tokens + excluded.output_tokens`,
              errors: sql`usage.errors + excluded.errors`,
              cost_micros: sql`usage.cost_micros + excluded.cost_micros`,
              unpriced_requests: sql`usage.unpriced_requests + excluded.unpriced_requests`,
              estimated_requests: sql`usage.estimated_requests + excluded.estimated_requests`,
              provider_requests: sql`usage.provider_requests + excluded.provider_requests`,
            }),
          )
          .execute();
        for (const [status, count] of Object.entries(d.errorsByStatus)) {
          await trx
            .insertInto('usage_errors')
            .values({ hour: d.hour, user_id: d.userId, key_id: d.keyId, model: d.model, status: Number(status), count })
            .onConflict((oc) =>
              oc
                .columns(['hour', 'user_id', 'key_id', 'model', 'status'])
                .doUpdateSet({ count: sql`usage_errors.count + excluded.count` }),
            )
            .execute();
        }
      }
      for (const d of deltas) {
        for (const [outcome, count] of Object.entries(d.outcomes ?? {})) {
          await trx
            .insertInto('usage_outcomes')
            .values({ hour: d.hour, user_id: d.userId, key_id: d.keyId, model: d.model, outcome, count })
            .onConflict((oc) => oc.columns(['hour', 'user_id', 'key_id', 'model', 'outcome']).doUpdateSet({ count: sql`usage_outcomes.count + excluded.count` }))
            .execute();
        }
      }
      for (const d of deltas) {
        for (const [requested, count] of Object.entries(d.requested ?? {})) {
          await trx
            .insertInto('usage_requested_models')
            .values({ hour: d.hour, user_id: d.userId, key_id: d.keyId, model: d.model, requested_model: requested, count })
            .onConflict((oc) => oc.columns(['hour', 'user_id', 'key_id', 'model', 'requested_model']).doUpdateSet({ count: sql`usage_requested_models.count + excluded.count` }))
            .execute();
        }
      }
      for (const d of sessions) {
        await trx
          .insertInto('usage_sessions')
          .values({
            hour: d.hour,
            user_id: d.userId,
            key_id: d.keyId,
            session_id: d.sessionId,
            model: d.model,
            requests: d.requests,
            input_tokens: d.inputTokens,
            output_tokens: d.outputTokens,
            errors: d.errors,
            cost_micros: d.costMicros ?? 0,
            unpriced_requests: d.unpriced ?? 0,
          })
          .onConflict((oc) =>
            oc.columns(['hour', 'user_id', 'key_id', 'session_id', 'model']).doUpdateSet({
              requests: sql`usage_sessions.requests + excluded.requests`,
              input_tokens: sql`usage_sessions.input_tokens + excluded.input_tokens`,
              output_tokens: sql`usage_sessions.output_tokens + excluded.output_tokens`,
              errors: sql`usage_sessions.errors + excluded.errors`,
              cost_micros: sql`usage_sessions.cost_micros + excluded.cost_micros`,
              unpriced_requests: sql`usage_sessions.unpriced_requests + excluded.unpriced_requests`,
            }),
          )
          .execute();
      }
      for (const [id, at] of lastUsed) {
        await trx.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
      }
    });
  }

  async rows(query: UsageQuery = {}): Promise<UsageRow[]> {
    let q = this.db.selectFrom('usage').selectAll();
    if (query.userId) q = q.where('user_id', '=', query.userId);
    if (query.keyId) q = q.where('key_id', '=', query.keyId);
    if (query.sinceHour) q = q.where('hour', '>=', query.sinceHour);
    const rows = await q.orderBy('hour').orderBy('user_id').orderBy('key_id').orderBy('model').execute();
    return rows.map((r) => ({
      hour: r.hour,
      userId: r.user_id,
      keyId: r.key_id,
      model: r.model,
      requests: Number(r.requests),
      inputTokens: Number(r.input_tokens),
      outputTokens: Number(r.output_tokens),
      errors: Number(r.errors),
      costMicros: Number(r.cost_micros),
      unpriced: Number(r.unpriced_requests),
      estimated: Number(r.estimated_requests),
      providerRequests: Number(r.provider_requests),
    }));
  }

  /**
   * What a key (or all of a user's keys, the web apps left out) used in `[sinceHour, untilHour)`:
   * requests that reached a provider, tokens and cost, as budgets count them.
   */
  async budgetTotals(subject: { keyId: string } | { userId: string }, sinceHour: string, untilHour: string): Promise<{ requests: number; tokens: number; cost: number }> {
    let q = this.db
      .selectFrom('usage')
      .select([
        sql<string | number>`coalesce(sum(provider_requests), 0)`.as('requests'),
        sql<string | number>`coalesce(sum(input_tokens + output_tokens), 0)`.as('tokens'),
        sql<string | number>`coalesce(sum(cost_micros), 0)`.as('cost'),
      ])
      .where('hour', '>=', sinceHour)
      .where('hour', '<', untilHour);
    q = 'keyId' in subject ? q.where('key_id', '=', subject.keyId) : q.where('user_id', '=', subject.userId).where('key_id', '!=', '');
    const row = await q.executeTakeFirst();
    return { requests: Number(row?.requests ?? 0), tokens: Number(row?.tokens ?? 0), cost: Number(row?.cost ?? 0) };
  }

  async errorsByStatus(query: UsageQuery = {}): Promise<Array<UsageBucketKey & { status: number; count: number }>> {
    let q = this.db.selectFrom('usage_errors').selectAll();
    if (query.userId) q = q.where('user_id', '=', query.userId);
    if (query.keyId) q = q.where('key_id', '=', query.keyId);
    if (query.sinceHour) q = q.where('hour', '>=', query.sinceHour);
    const rows = await q.orderBy('hour').execute();
    return rows.map((r) => ({
      hour: r.hour,
      userId: r.user_id,
      keyId: r.key_id,
      model: r.model,
      status: Number(r.status),
      count: Number(r.count),
    }));
  }

  async outcomes(query: UsageQuery = {}): Promise<Array<UsageBucketKey & { outcome: string; count: number }>> {
    let q = this.db.selectFrom('usage_outcomes').selectAll();
    if (query.userId) q = q.where('user_id', '=', query.userId);
    if (query.keyId) q = q.where('key_id', '=', query.keyId);
    if (query.sinceHour) q = q.where('hour', '>=', query.sinceHour);
    const rows = await q.orderBy('hour').execute();
    return rows.map((r) => ({ hour: r.hour, userId: r.user_id, keyId: r.key_id, model: r.model, outcome: r.outcome, count: Number(r.count) }));
  }

  /** Aliased requests: the name asked for beside the model that served it. */
  async requestedModels(query: UsageQuery = {}): Promise<Array<UsageBucketKey & { requestedModel: string; count: number }>> {
    let q = this.db.selectFrom('usage_requested_models').selectAll();
    if (query.userId) q = q.where('user_id', '=', query.userId);
    if (query.keyId) q = q.where('key_id', '=', query.keyId);
    if (query.sinceHour) q = q.where('hour', '>=', query.sinceHour);
    const rows = await q.orderBy('hour').execute();
    return rows.map((r) => ({ hour: r.hour, userId: r.user_id, keyId: r.key_id, model: r.model, requestedModel: r.requested_model, count: Number(r.count) }));
  }

  async sessionRows(query: UsageQuery = {}): Promise<SessionUsageRow[]> {
    let q = this.db.selectFrom('usage_sessions').selectAll();
    if (query.userId) q = q.where('user_id', '=', query.userId);
    if (query.keyId) q = q.where('key_id', '=', query.keyId);
    if (query.sinceHour) q = q.where('hour', '>=', query.sinceHour);
    const rows = await q.orderBy('hour').orderBy('session_id').orderBy('model').execute();
    return rows.map((r) => ({
      hour: r.hour,
      userId: r.user_id,
      keyId: r.key_id,
      sessionId: r.session_id,
      model: r.model,
      requests: Number(r.requests),
      inputTokens: Number(r.input_tokens),
      outputTokens: Number(r.output_tokens),
      errors: Number(r.errors),
      costMicros: Number(r.cost_micros),
      unpriced: Number(r.unpriced_requests),
    }));
  }
}
