// The cost recorded with one request's usage, computed once when it is recorded and never again
// (a later price change does not rewrite it). Only work a provider did is billed: a refusal costs 0.
// Tokens the gateway had to estimate (a stream cut before its usage report, an upstream that sent
// none) are billed as estimated and marked so.
import type { UsageClasses } from '../protocols/canonical/usage.ts';
import type { PriceBook } from '../pricing/price-book.ts';
import { classTotals, NO_CLASSES } from './usage-classes-of.ts';

export interface RecordedCost {
  /** Micro-units of the price table's currency; null when the model has no price (unknown, not zero). */
  costMicros: number | null;
  /** Tokens behind the cost were estimated, not reported by the upstream. */
  costEstimated: boolean;
  /** The request reached a provider (what money and token budgets count). */
  billed: boolean;
}

export interface CostFacts {
  model: string;
  provider?: string;
  /** The classes the upstream reported, if it did. */
  classes?: UsageClasses;
  /** The totals being recorded (estimates included). */
  inputTokens: number;
  outputTokens: number;
  estimated: boolean;
  billed: boolean;
  images?: number;
  imageSize?: string;
  at: number;
}

/** The reported classes, brought to the recorded totals where the gateway estimated beyond them. */
export function recordedClasses(facts: Pick<CostFacts, 'classes' | 'inputTokens' | 'outputTokens'>): UsageClasses {
  const classes = facts.classes ?? { ...NO_CLASSES, input: facts.inputTokens };
  const totals = classTotals(classes);
  return {
    ...classes,
    input: classes.input + Math.max(0, facts.inputTokens - totals.inputTokens),
    output: Math.max(classes.output, facts.outputTokens),
  };
}

export function costOf(prices: PriceBook | undefined, facts: CostFacts): RecordedCost {
  if (!facts.billed) return { costMicros: 0, costEstimated: false, billed: false };
  const usage = { classes: recordedClasses(facts), images: facts.images, imageSize: facts.imageSize };
  const priced = prices ? prices.cost(facts.model, facts.provider, usage, facts.at) : undefined;
  return { costMicros: priced ? priced.micros : null, costEstimated: facts.estimated, billed: true };
}
