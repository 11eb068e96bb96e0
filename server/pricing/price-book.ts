// The price table the gateway bills by: the providers file's `prices` plus the entries set with
// `gwctl admin price set` or the operator API (kept in the database; one of those replaces a file
// entry of the same model, provider and date). Held in memory and re-read from the database on the
// usage flush cadence, so no request touches the database. Models used without a price are
// remembered, for the warning in `serve` output, `/admin` and the metrics.
import { requestCost, type CostUsage } from './request-cost.ts';
import { priceId, type Price, type PriceEntry } from './price.ts';

export type Priced = { micros: number; currency: string; price: PriceEntry } | { micros: null; reason: string };

function globPattern(glob: string): RegExp {
  return new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
}

interface Candidate {
  entry: PriceEntry;
  pattern: RegExp | undefined;
  /** Epoch ms the entry takes effect (0 = always). */
  fromMs: number;
  /** Higher wins: provider-narrowed, then exact names, then longer globs. */
  rank: number;
}

export class PriceBook {
  private candidates: Candidate[] = [];
  private readonly cache = new Map<string, Candidate[]>();
  private databaseEntries: Price[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** Model -> first time it was used without a price (epoch ms). */
  private readonly unpriced = new Map<string, number>();
  /** Called once per model the first time it is used without a price. */
  onUnpriced?: (model: string, reason: string) => void;

  constructor(
    private readonly fileEntries: readonly Price[] = [],
    private readonly loadDatabase?: () => Promise<Price[]>,
  ) {
    this.rebuild();
  }

  /** Every entry in force or scheduled, file entries replaced by database ones of the same identity. */
  entries(): PriceEntry[] {
    const merged = new Map<string, PriceEntry>();
    for (const price of this.fileEntries) merged.set(priceId(price), { ...price, source: 'file' });
    for (const price of this.databaseEntries) merged.set(priceId(price), { ...price, source: 'database' });
    return [...merged.values()];
  }

  /** The one currency of the table (undefined while it is empty). */
  get currency(): string | undefined {
    return this.candidates[0]?.entry.currency;
  }

  async reload(): Promise<void> {
    if (!this.loadDatabase) return;
    this.databaseEntries = await this.loadDatabase();
    this.rebuild();
  }

  start(intervalMs: number): void {
    if (!this.loadDatabase) return;
    this.timer = setInterval(() => void this.reload().catch(() => undefined), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  private rebuild(): void {
    this.candidates = this.entries().map((entry) => {
      const glob = entry.model.includes('*');
      return {
        entry,
        pattern: glob ? globPattern(entry.model) : undefined,
        fromMs: entry.from ? Date.parse(`${entry.from}T00:00:00Z`) : 0,
        rank: (entry.provider ? 1_000_000 : 0) + (glob ? entry.model.length : 100_000),
      };
    });
    this.cache.clear();
  }

  /** The entry in force for a model served by a provider at an instant. */
  resolve(model: string, provider: string | undefined, at: number): PriceEntry | undefined {
    const id = `${model}\u0000${provider ?? ''}`;
    let matching = this.cache.get(id);
    if (!matching) {
      matching = this.candidates
        .filter((c) => (c.pattern ? c.pattern.test(model) : c.entry.model === model) && (!c.entry.provider || c.entry.provider === provider))
        .sort((a, b) => b.rank - a.rank || b.fromMs - a.fromMs);
      this.cache.set(id, matching);
    }
    return matching.find((c) => c.fromMs <= at)?.entry;
  }

  /** What one request cost, or why it has no cost (no price, or a used class without one). */
  cost(model: string, provider: string | undefined, usage: CostUsage, at: number): Priced {
    const price = this.resolve(model, provider, at);
    if (!price) return this.unknown(model, `no price for ${model}${provider ? ` (provider ${provider})` : ''}`);
    const result = requestCost(price, usage);
    if ('missing' in result) return this.unknown(model, `the price of ${price.model} has no ${result.missing}`);
    return { micros: result.micros, currency: price.currency, price };
  }

  private unknown(model: string, reason: string): Priced {
    if (!this.unpriced.has(model)) {
      this.unpriced.set(model, Date.now());
      this.onUnpriced?.(model, reason);
    }
    return { micros: null, reason };
  }

  /** Models used without a price since start that still have none now. */
  unpricedModels(at: number = Date.now()): string[] {
    return [...this.unpriced.keys()].filter((model) => !this.resolve(model, undefined, at) && !this.candidates.some((c) => c.entry.provider && (c.pattern ? c.pattern.test(model) : c.entry.model === model)));
  }
}
