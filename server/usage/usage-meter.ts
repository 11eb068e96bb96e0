// Aggregates usage in memory per hour, user, key and model, and writes it in batches:
// no database write per request. flush() is called on a timer and at shutdown.
import type { SessionUsageDelta, UsageDelta, UsageRepo } from '../store/usage-repo.ts';
import type { JournalCursor } from './usage-journal.ts';
import type { UsageOutcome } from './usage-outcome.ts';
import type { UsageClasses } from '../protocols/canonical/usage.ts';

export interface UsageEvent {
  userId: string;
  /** '' for the web applications, which need no key. */
  keyId: string;
  model: string;
  status: number;
  inputTokens: number;
  outputTokens: number;
  /** The client's session id (from a header such as x-claude-code-session-id), when it sent one. */
  sessionId?: string;
  /** Set when the exchange did not complete normally. */
  outcome?: UsageOutcome;
  /** The name the client asked for, when a model alias served it under `model`. */
  requestedModel?: string;
  /** Micro-units of the price table's currency; null = reached a provider without a price; absent = 0. */
  costMicros?: number | null;
  /** The tokens behind the cost were estimated. */
  costEstimated?: boolean;
  /** A provider was called (what request budgets count). */
  reachedProvider?: boolean;
  /** Every token class apart, for the metrics. */
  usageClasses?: UsageClasses;
}

export function hourBucket(at: Date): string {
  return at.toISOString().slice(0, 13) + ':00Z';
}

const HOUR_MS = 3_600_000;

/** What every usage bucket counts (per key and model, and per client session). */
type Counts = Pick<UsageDelta, 'requests' | 'inputTokens' | 'outputTokens' | 'errors'>;

function addCounts(into: Counts, from: Counts): void {
  into.requests += from.requests;
  into.inputTokens += from.inputTokens;
  into.outputTokens += from.outputTokens;
  into.errors += from.errors;
}

/** What every usage bucket adds up about money: cost, requests without a price, estimated ones, and provider calls. */
type CostCounts = Required<Pick<UsageDelta, 'costMicros' | 'unpriced' | 'estimated' | 'providerRequests'>>;

const NO_COST: CostCounts = { costMicros: 0, unpriced: 0, estimated: 0, providerRequests: 0 };

function costCounts(event: UsageEvent): CostCounts {
  return {
    costMicros: event.costMicros ?? 0,
    unpriced: event.costMicros === null ? 1 : 0,
    estimated: event.costEstimated ? 1 : 0,
    providerRequests: event.reachedProvider ? 1 : 0,
  };
}

function addCost(into: UsageDelta, from: Partial<CostCounts>): void {
  into.costMicros = (into.costMicros ?? 0) + (from.costMicros ?? 0);
  into.unpriced = (into.unpriced ?? 0) + (from.unpriced ?? 0);
  into.estimated = (into.estimated ?? 0) + (from.estimated ?? 0);
  into.providerRequests = (into.providerRequests ?? 0) + (from.providerRequests ?? 0);
}

function addSessionCost(into: SessionUsageDelta, from: Pick<SessionUsageDelta, 'costMicros' | 'unpriced'>): void {
  into.costMicros = (into.costMicros ?? 0) + (from.costMicros ?? 0);
  into.unpriced = (into.unpriced ?? 0) + (from.unpriced ?? 0);
}

export class UsageMeter {
  private pending = new Map<string, UsageDelta>();
  private pendingSessions = new Map<string, SessionUsageDelta>();
  /** Key id -> epoch ms of its latest use; formatted only when written. */
  private lastUsed = new Map<string, number>();
  private hourCache = { start: -1, label: '' };
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private journal: JournalCursor | undefined;
  /** Writes that failed since start; their batches were kept and are written with a later flush. */
  flushFailures = 0;

  constructor(
    private readonly repo: UsageRepo,
    private readonly now: () => Date = () => new Date(),
  ) {}

  start(intervalMs: number): void {
    this.timer = setInterval(() => void this.flush().catch(() => undefined), intervalMs);
    this.timer.unref();
  }

  /** Entries of this journal are counted here; each flush writes how far (journal replay skips that). */
  attachJournal(journal: JournalCursor): void {
    this.journal = journal;
  }

  /** `atMs`: when the request ended, if not now (a journal replayed at start). */
  record(event: UsageEvent, atMs?: number): void {
    const at = atMs ?? this.now().getTime();
    const hour = this.hourLabel(at);
    const id = `${hour}\u0000${event.userId}\u0000${event.keyId}\u0000${event.model}`;
    let delta = this.pending.get(id);
    if (!delta) {
      delta = { hour, userId: event.userId, keyId: event.keyId, model: event.model, requests: 0, inputTokens: 0, outputTokens: 0, errors: 0, errorsByStatus: {}, ...NO_COST };
      this.pending.set(id, delta);
    }
    const cost = costCounts(event);
    addCost(delta, cost);
    const counts = { requests: 1, inputTokens: Math.max(0, Math.round(event.inputTokens) || 0), outputTokens: Math.max(0, Math.round(event.outputTokens) || 0), errors: event.status >= 400 ? 1 : 0 };
    addCounts(delta, counts);
    if (event.status >= 400) delta.errorsByStatus[event.status] = (delta.errorsByStatus[event.status] ?? 0) + 1;
    if (event.outcome) {
      delta.outcomes ??= {};
      delta.outcomes[event.outcome] = (delta.outcomes[event.outcome] ?? 0) + 1;
    }
    if (event.requestedModel) {
      delta.requested ??= {};
      delta.requested[event.requestedModel] = (delta.requested[event.requestedModel] ?? 0) + 1;
    }
    if (event.keyId) this.lastUsed.set(event.keyId, at);
    if (event.sessionId) this.recordSession(hour, event, counts, cost);
  }

  private recordSession(hour: string, event: UsageEvent, counts: Counts, cost: Pick<CostCounts, 'costMicros' | 'unpriced'>): void {
    const id = `${hour}\u0000${event.userId}\u0000${event.keyId}\u0000${event.sessionId}\u0000${event.model}`;
    let delta = this.pendingSessions.get(id);
    if (!delta) {
      delta = { hour, userId: event.userId, keyId: event.keyId, sessionId: event.sessionId!, model: event.model, requests: 0, inputTokens: 0, outputTokens: 0, errors: 0, costMicros: 0, unpriced: 0 };
      this.pendingSessions.set(id, delta);
    }
    addCounts(delta, counts);
    addSessionCost(delta, cost);
  }

  private hourLabel(at: number): string {
    const start = at - (at % HOUR_MS);
    if (start !== this.hourCache.start) this.hourCache = { start, label: hourBucket(new Date(start)) };
    return this.hourCache.label;
  }

  get pendingBuckets(): number {
    return this.pending.size;
  }

  /** Writes what has accumulated; on failure the batch is merged back and retried next time. */
  flush(): Promise<void> {
    // A failed earlier flush must not block this one: its batch was merged back already.
    this.flushing = this.flushing.catch(() => undefined).then(() => this.flushOnce());
    return this.flushing;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }

  private async flushOnce(): Promise<void> {
    // Taken with the batch: every journal entry up to here is in it or was written before.
    const journal = this.journal;
    const seq = journal?.lastSeq() ?? 0;
    if (this.pending.size === 0 && this.lastUsed.size === 0 && this.pendingSessions.size === 0) {
      journal?.durable('usage', seq);
      return;
    }
    const batch = this.pending;
    const lastUsed = this.lastUsed;
    const sessions = this.pendingSessions;
    this.pending = new Map();
    this.lastUsed = new Map();
    this.pendingSessions = new Map();
    try {
      const lastUsedAt = new Map([...lastUsed].map(([id, at]) => [id, new Date(at).toISOString()]));
      await this.repo.apply([...batch.values()], lastUsedAt, [...sessions.values()], journal && { journalId: journal.id, sink: 'usage', seq });
    } catch (error) {
      this.flushFailures += 1;
      for (const [id, delta] of batch) this.mergeBack(id, delta);
      for (const [id, delta] of sessions) this.mergeSessionBack(id, delta);
      for (const [keyId, at] of lastUsed) if (!this.lastUsed.has(keyId)) this.lastUsed.set(keyId, at);
      throw error;
    }
    journal?.durable('usage', seq);
  }

  private mergeSessionBack(id: string, delta: SessionUsageDelta): void {
    const current = this.pendingSessions.get(id);
    if (!current) {
      this.pendingSessions.set(id, delta);
      return;
    }
    addCounts(current, delta);
    addSessionCost(current, delta);
  }

  private mergeBack(id: string, delta: UsageDelta): void {
    const current = this.pending.get(id);
    if (!current) {
      this.pending.set(id, delta);
      return;
    }
    addCounts(current, delta);
    addCost(current, delta);
    for (const [status, count] of Object.entries(delta.errorsByStatus)) {
      current.errorsByStatus[Number(status)] = (current.errorsByStatus[Number(status)] ?? 0) + count;
    }
    for (const [outcome, count] of Object.entries(delta.outcomes ?? {})) {
      current.outcomes ??= {};
      current.outcomes[outcome] = (current.outcomes[outcome] ?? 0) + count;
    }
    for (const [requested, count] of Object.entries(delta.requested ?? {})) {
      current.requested ??= {};
      current.requested[requested] = (current.requested[requested] ?? 0) + count;
    }
  }
}
