// Tokens by model and class, cost by model, and requests without a price, summed in plain maps per
// request (no prom-client label object per call) and handed to the counters when /metrics is scraped.
import type { UsageClasses } from '../protocols/canonical/usage.ts';

type Add<L> = (labels: L, amount: number) => void;

const CLASSES: Array<[keyof UsageClasses, string]> = [
  ['input', 'input'],
  ['output', 'output'],
  ['cacheRead', 'cache_read'],
  ['cacheWrite5m', 'cache_write_5m'],
  ['cacheWrite1h', 'cache_write_1h'],
  ['reasoning', 'reasoning'],
];

export class UsageCounts {
  private readonly tokens = new Map<string, { labels: { model: string; class: string }; pending: number }>();
  private readonly cost = new Map<string, { labels: { model: string; currency: string }; pending: number }>();
  private readonly unpriced = new Map<string, { labels: { model: string }; pending: number }>();

  add(model: string, classes: UsageClasses, costMicros: number | null, currency: string | undefined): void {
    for (const [field, name] of CLASSES) {
      const n = classes[field];
      if (n > 0) bump(this.tokens, `${model}\u0000${name}`, () => ({ model, class: name }), n);
    }
    if (costMicros === null) bump(this.unpriced, model, () => ({ model }), 1);
    else if (costMicros > 0) bump(this.cost, `${model}\u0000${currency ?? ''}`, () => ({ model, currency: currency ?? '' }), costMicros);
  }

  drainTokens(into: Add<{ model: string; class: string }>): void {
    drain(this.tokens, into);
  }

  drainCost(into: Add<{ model: string; currency: string }>): void {
    drain(this.cost, into);
  }

  drainUnpriced(into: Add<{ model: string }>): void {
    drain(this.unpriced, into);
  }
}

function bump<L>(map: Map<string, { labels: L; pending: number }>, key: string, labels: () => L, amount: number): void {
  const entry = map.get(key);
  if (entry) entry.pending += amount;
  else map.set(key, { labels: labels(), pending: amount });
}

function drain<L>(map: Map<string, { labels: L; pending: number }>, into: Add<L>): void {
  for (const entry of map.values()) {
    if (entry.pending === 0) continue;
    into(entry.labels, entry.pending);
    entry.pending = 0;
  }
}
