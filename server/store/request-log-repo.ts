// The request log: batched multi-row inserts from the in-memory buffer, one owner's entries newest
// first with keyset paging (at, id; never OFFSET), and pruning by age in bounded batches.
import { sql, type Kysely } from 'kysely';
import { newId } from '../auth/random-tokens.ts';
import type { Database, RequestLogTable } from './schema.ts';

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
}

export interface RequestLogRecord {
  id: string;
  /** ISO-8601 with milliseconds. */
  at: string;
  keyId: string;
  model: string;
  status: number;
  inputTokens: number;
  outputTokens: number;
  latencyMs: number;
  sessionId: string | null;
  outcome: string | null;
}

export type StatusClass = 2 | 3 | 4 | 5;

export interface RequestLogQuery {
  userId: string;
  keyId?: string;
  model?: string;
  statusClass?: StatusClass;
  /** Inclusive ISO lower bound. */
  since?: string;
  /** Exclusive ISO upper bound. */
  until?: string;
  /** Entries strictly older than this position (the last one of the previous page). */
  before?: { at: string; id: string };
  limit: number;
}

/**
 * Entry ids: a random prefix per process and a counter, unique across instances and restarts
 * without asking the random source once per request.
 */
const ID_PREFIX = `${newId('req')}_`;
let idCounter = 0;
const nextEntryId = (): string => ID_PREFIX + (idCounter++).toString(36);

/** Rows per INSERT: well under SQLite's and PostgreSQL's bound on bound parameters (11 a row). */
const ROWS_PER_INSERT = 500;

const COLUMNS = ['id', 'at', 'user_id', 'key_id', 'model', 'status', 'input_tokens', 'output_tokens', 'latency_ms', 'session_id', 'outcome'] as const;
const INSERT_ONE = `insert into request_log (${COLUMNS.join(', ')}) values (${COLUMNS.map(() => '?').join(', ')})`;

export class RequestLogRepo {
  constructor(
    private readonly db: Kysely<Database>,
    /** SQLite: one prepared statement run per row in one transaction (see OpenedDatabase.runBatch). */
    private readonly runBatch?: (sql: string, rows: unknown[][]) => Promise<void>,
  ) {}

  /** Writes a batch in one transaction (all or nothing): on SQLite one prepared row insert per entry, on PostgreSQL a few hundred rows per statement. */
  async insert(entries: RequestLogInput[]): Promise<void> {
    if (entries.length === 0) return;
    const rows: RequestLogTable[] = entries.map((e) => ({
      id: nextEntryId(),
      at: new Date(e.at).toISOString(),
      user_id: e.userId,
      key_id: e.keyId,
      model: e.model,
      status: e.status,
      input_tokens: Math.max(0, Math.round(e.inputTokens) || 0),
      output_tokens: Math.max(0, Math.round(e.outputTokens) || 0),
      latency_ms: Math.max(0, Math.round(e.latencyMs) || 0),
      session_id: e.sessionId ?? null,
      outcome: e.outcome ?? null,
    }));
    if (this.runBatch) {
      await this.runBatch(INSERT_ONE, rows.map((row) => COLUMNS.map((column) => row[column])));
      return;
    }
    await this.db.transaction().execute(async (trx) => {
      for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
        await trx.insertInto('request_log').values(rows.slice(i, i + ROWS_PER_INSERT)).execute();
      }
    });
  }

  /** Newest first; at most `limit` entries. */
  async list(query: RequestLogQuery): Promise<RequestLogRecord[]> {
    let q = this.db.selectFrom('request_log').selectAll().where('user_id', '=', query.userId);
    if (query.keyId) q = q.where('key_id', '=', query.keyId);
    if (query.model) q = q.where('model', '=', query.model);
    if (query.statusClass) q = q.where('status', '>=', query.statusClass * 100).where('status', '<', query.statusClass * 100 + 100);
    if (query.since) q = q.where('at', '>=', query.since);
    if (query.until) q = q.where('at', '<', query.until);
    const before = query.before;
    if (before) q = q.where((eb) => eb.or([eb('at', '<', before.at), eb.and([eb('at', '=', before.at), eb('id', '<', before.id)])]));
    const rows = await q.orderBy('at', 'desc').orderBy('id', 'desc').limit(query.limit).execute();
    return rows.map((r) => ({
      id: r.id,
      at: r.at,
      keyId: r.key_id,
      model: r.model,
      status: Number(r.status),
      inputTokens: Number(r.input_tokens),
      outputTokens: Number(r.output_tokens),
      latencyMs: Number(r.latency_ms),
      sessionId: r.session_id,
      outcome: r.outcome,
    }));
  }

  /**
   * Deletes entries older than `cutoff` (ISO), `batchSize` rows per statement so no single delete
   * holds locks for long; returns how many went.
   */
  async prune(cutoff: string, batchSize = 5_000): Promise<number> {
    let total = 0;
    for (;;) {
      const oldest = this.db.selectFrom('request_log').select('id').where('at', '<', cutoff).limit(batchSize);
      const result = await this.db.deleteFrom('request_log').where('id', 'in', oldest).executeTakeFirst();
      const deleted = Number(result.numDeletedRows ?? 0n);
      total += deleted;
      if (deleted < batchSize) return total;
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
