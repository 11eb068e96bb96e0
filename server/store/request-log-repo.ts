// The request log: batched inserts from the in-memory buffer, one owner's entries newest first with
// keyset paging (at, id; never OFFSET), and pruning by age in bounded batches from the oldest id.
// Since migration 0012 a row is cheap to write: the database assigns the id (SQLite: the rowid),
// `at` is epoch milliseconds, and only two indexes are kept up (owner and time, key and time).
import { CompiledQuery, sql, type Kysely, type Selectable } from 'kysely';
import type { OpenedDatabase } from './open-database.ts';
import type { Database, RequestLogTable } from './schema.ts';
import { journalMarkRow, UPSERT_JOURNAL_MARK, writeJournalMark, type JournalMark } from './usage-journal-marks.ts';

export interface RequestLogInput {
  /** Epoch ms the request ended. */
  at: number;
  userId: string;
  keyId: string;
  model: string;
  status: number;
  inputTokens: number;
  outputTokens: number;
  latencyMs: number;
  sessionId?: string;
  outcome?: string;
  /** The name the client asked for, when it differs from `model` (a model alias). */
  requestedModel?: string;
  /** The support desk's fields (see request-log-support.ts); all optional. */
  requestId?: string;
  method?: string;
  /** Without the query. */
  path?: string;
  protocol?: string;
  errorCode?: string;
  /** The gateway's own refusal message (never an upstream's body). */
  errorMessage?: string;
  /** A refused key value's masked hint and fingerprint, when no key matched it. */
  keyHint?: string;
  keyFingerprint?: string;
  provider?: string;
  upstreamStatus?: number;
  upstreamRequestId?: string;
  attempts?: number;
  /** Micro-units of the price table's currency; null = the model had no price; absent = 0. */
  costMicros?: number | null;
  /** The tokens behind the cost were estimated. */
  costEstimated?: boolean;
}

export interface RequestLogRecord {
  /** Assigned by the database; grows with `at` (give or take a batch). */
  id: number;
  /** Epoch ms. */
  at: number;
  keyId: string;
  model: string;
  status: number;
  inputTokens: number;
  outputTokens: number;
  latencyMs: number;
  sessionId: string | null;
  outcome: string | null;
  requestedModel: string | null;
  userId: string;
  requestId: string | null;
  method: string | null;
  path: string | null;
  protocol: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  keyHint: string | null;
  keyFingerprint: string | null;
  provider: string | null;
  upstreamStatus: number | null;
  upstreamRequestId: string | null;
  attempts: number | null;
  /** Micro-units of the price table's currency; null = the model had no price. */
  costMicros: number | null;
  costEstimated: boolean;
}

export type StatusClass = 2 | 3 | 4 | 5;

export interface RequestLogQuery {
  userId: string;
  keyId?: string;
  model?: string;
  statusClass?: StatusClass;
  /** Inclusive lower bound, epoch ms. */
  since?: number;
  /** Exclusive upper bound, epoch ms. */
  until?: number;
  /** Entries strictly older than this position (the last one of the previous page). */
  before?: { at: number; id: number };
  limit: number;
}

/** Rows per INSERT on PostgreSQL: 25 parameters a row, well under its bound of 65,535. */
const ROWS_PER_INSERT = 500;

const COLUMNS = [
  'at', 'user_id', 'key_id', 'model', 'status', 'input_tokens', 'output_tokens', 'latency_ms', 'session_id', 'outcome', 'requested_model',
  'request_id', 'method', 'path', 'protocol', 'error_code', 'error_message', 'key_hint', 'key_fingerprint', 'provider', 'upstream_status', 'upstream_request_id', 'attempts',
  'cost_micros', 'cost_estimated',
] as const;
const INSERT_INTO = `insert into request_log (${COLUMNS.join(', ')}) values `;
const INSERT_ONE = `${INSERT_INTO}(${COLUMNS.map(() => '?').join(', ')})`;

/** PostgreSQL: `insert … values ($1, …, $23), ($24, …)` for `rows` rows. */
function multiRowInsert(rows: number): string {
  const tuples: string[] = [];
  for (let r = 0, p = 1; r < rows; r += 1) {
    const params: string[] = [];
    for (let c = 0; c < COLUMNS.length; c += 1) params.push(`$${p++}`);
    tuples.push(`(${params.join(', ')})`);
  }
  return INSERT_INTO + tuples.join(', ');
}
const INSERT_FULL = multiRowInsert(ROWS_PER_INSERT);

/** Whole, non-negative counts (tokens, milliseconds). */
const count = (n: number): number => (n > 0 ? Math.round(n) : 0);

/** The row's values in COLUMNS order onto `into`, straight from the entry: no object per row, no id, no date formatting. */
function pushRow(into: unknown[], e: RequestLogInput): unknown[] {
  into.push(
    Math.floor(e.at), e.userId, e.keyId, e.model, e.status, count(e.inputTokens), count(e.outputTokens), count(e.latencyMs),
    e.sessionId ?? null, e.outcome ?? null, e.requestedModel ?? null,
    e.requestId ?? null, e.method ?? null, e.path ?? null, e.protocol ?? null, e.errorCode ?? null, e.errorMessage ?? null,
    e.keyHint ?? null, e.keyFingerprint ?? null, e.provider ?? null, e.upstreamStatus ?? null, e.upstreamRequestId ?? null, e.attempts ?? null,
    e.costMicros === undefined ? 0 : e.costMicros, e.costEstimated ? 1 : 0,
  );
  return into;
}
const rowOf = (e: RequestLogInput): unknown[] => pushRow([], e);

const toMs = (cutoff: string | number): number => {
  const ms = typeof cutoff === 'number' ? cutoff : Date.parse(cutoff);
  if (!Number.isFinite(ms)) throw new TypeError(`request log: not a time: ${String(cutoff)}`);
  return ms;
};

const nullableNumber = (value: number | string | null): number | null => (value === null ? null : Number(value));

function toRecord(r: Selectable<RequestLogTable>): RequestLogRecord {
  return {
    id: Number(r.id),
    at: Number(r.at),
    userId: r.user_id,
    keyId: r.key_id,
    model: r.model,
    status: Number(r.status),
    inputTokens: Number(r.input_tokens),
    outputTokens: Number(r.output_tokens),
    latencyMs: Number(r.latency_ms),
    sessionId: r.session_id,
    outcome: r.outcome,
    requestedModel: r.requested_model ?? null,
    requestId: r.request_id ?? null,
    method: r.method ?? null,
    path: r.path ?? null,
    protocol: r.protocol ?? null,
    errorCode: r.error_code ?? null,
    errorMessage: r.error_message ?? null,
    keyHint: r.key_hint ?? null,
    keyFingerprint: r.key_fingerprint ?? null,
    provider: r.provider ?? null,
    upstreamStatus: nullableNumber(r.upstream_status ?? null),
    upstreamRequestId: r.upstream_request_id ?? null,
    attempts: nullableNumber(r.attempts ?? null),
    costMicros: r.cost_micros === null || r.cost_micros === undefined ? null : Number(r.cost_micros),
    costEstimated: Number(r.cost_estimated ?? 0) === 1,
  };
}

export class RequestLogRepo {
  constructor(
    private readonly db: Kysely<Database>,
    /** SQLite: one prepared statement run per row in one transaction (see OpenedDatabase.runBatch). */
    private readonly runBatch?: OpenedDatabase['runBatch'],
  ) {}

  /**
   * Writes a batch in one transaction (all or nothing): on SQLite one prepared row insert per entry, on
   * PostgreSQL a few hundred rows per statement. `mark`, the usage journal's, is written in it too.
   */
  async insert(entries: RequestLogInput[], mark?: JournalMark): Promise<void> {
    if (entries.length === 0) return;
    if (this.runBatch) {
      await this.runBatch(INSERT_ONE, entries.map(rowOf), mark && { sql: UPSERT_JOURNAL_MARK, params: journalMarkRow(mark) });
      return;
    }
    await this.db.transaction().execute(async (trx) => {
      if (mark) await writeJournalMark(trx, mark);
      for (let i = 0; i < entries.length; i += ROWS_PER_INSERT) {
        const end = Math.min(i + ROWS_PER_INSERT, entries.length);
        const params: unknown[] = [];
        for (let j = i; j < end; j += 1) pushRow(params, entries[j]!);
        const text = end - i === ROWS_PER_INSERT ? INSERT_FULL : multiRowInsert(end - i);
        await trx.executeQuery(CompiledQuery.raw(text, params));
      }
    });
  }

  /** Newest first; at most `limit` entries. */
  async list(query: RequestLogQuery): Promise<RequestLogRecord[]> {
    let q = this.db.selectFrom('request_log').selectAll().where('user_id', '=', query.userId);
    if (query.keyId) q = q.where('key_id', '=', query.keyId);
    if (query.model) q = q.where('model', '=', query.model);
    if (query.statusClass) q = q.where('status', '>=', query.statusClass * 100).where('status', '<', query.statusClass * 100 + 100);
    if (query.since !== undefined) q = q.where('at', '>=', query.since);
    if (query.until !== undefined) q = q.where('at', '<', query.until);
    const before = query.before;
    // A row-value comparison: both databases take it as one range of the (…, at, id) index.
    if (before) q = q.where((eb) => eb(eb.refTuple('at', 'id'), '<', eb.tuple(before.at, before.id)));
    const rows = await q.orderBy('at', 'desc').orderBy('id', 'desc').limit(query.limit).execute();
    return rows.map(toRecord);
  }

  /** The entry of a request id: the gateway's own, or the upstream's (a messages client shows that one). */
  async findByRequestId(requestId: string): Promise<RequestLogRecord | undefined> {
    const own = await this.db.selectFrom('request_log').selectAll().where('request_id', '=', requestId).limit(1).executeTakeFirst();
    if (own) return toRecord(own);
    const upstream = await this.db.selectFrom('request_log').selectAll().where('upstream_request_id', '=', requestId).limit(1).executeTakeFirst();
    return upstream ? toRecord(upstream) : undefined;
  }

  /**
   * The newest entries since `since` (epoch ms) of one key, one owner, or refused key values (by
   * fingerprint, or by masked hint: the latter reads the period's rows, for the support desk only).
   */
  async recentOf(
    subject: { keyId: string } | { userId: string } | { fingerprint: string } | { keyHint: string },
    since: number,
    limit: number,
  ): Promise<RequestLogRecord[]> {
    let q = this.db.selectFrom('request_log').selectAll().where('at', '>=', since);
    if ('keyId' in subject) q = q.where('key_id', '=', subject.keyId);
    else if ('userId' in subject) q = q.where('user_id', '=', subject.userId);
    else if ('fingerprint' in subject) q = q.where('key_fingerprint', '=', subject.fingerprint);
    else q = q.where('key_hint', '=', subject.keyHint).where('key_fingerprint', 'is not', null);
    const rows = await q.orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    return rows.map(toRecord);
  }

  /**
   * Deletes entries older than `cutoff` (ISO or epoch ms) without an index on time: rows are
   * written in time order, so ids grow with `at` (give or take a second of batching and, on
   * PostgreSQL, several instances' batches interleaving). It takes the oldest `batchSize` ids,
   * deletes those older than the cutoff, and goes on to the next ids only while a whole batch was
   * old: it stops at the first batch holding an entry inside the retention period. Each batch is a
   * range of the primary key, so the work is O(rows deleted), never a scan of the table; between
   * batches it lets the event loop run. An old entry written after a recent one (a clock behind)
   * waits for a later prune. Returns how many went.
   */
  async prune(cutoff: string | number, batchSize = 5_000): Promise<number> {
    const cutoffMs = toMs(cutoff);
    let total = 0;
    let after = -1;
    for (;;) {
      const probe = await sql<{ n: number | string; last: number | string | null; recent: number | string | null }>`
        select count(*) as n, max(id) as last, sum(case when at >= ${cutoffMs} then 1 else 0 end) as recent
        from (select id, at from request_log where id > ${after} order by id limit ${batchSize}) oldest`.execute(this.db);
      const batch = probe.rows[0];
      const n = Number(batch?.n ?? 0);
      if (!batch || n === 0 || batch.last === null) return total;
      const last = Number(batch.last);
      const result = await this.db
        .deleteFrom('request_log')
        .where('id', '>', after)
        .where('id', '<=', last)
        .where('at', '<', cutoffMs)
        .executeTakeFirst();
      total += Number(result.numDeletedRows ?? 0n);
      if (Number(batch.recent ?? 0) > 0 || n < batchSize) return total;
      after = last;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  /** Entries of one owner (tests and the operator's view of the table size). */
  async count(userId?: string): Promise<number> {
    let q = this.db.selectFrom('request_log').select(sql<string>`count(*)`.as('n'));
    if (userId) q = q.where('user_id', '=', userId);
    const row = await q.executeTakeFirst();
    return Number(row?.n ?? 0);
  }
}
