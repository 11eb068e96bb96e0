// The cost of one request from its usage, every token class at its own price, exact to the
// micro-unit: the sum is taken in BigInt pico-units times tokens and rounded (half up) once.
import type { UsageClasses } from '../protocols/canonical/usage.ts';
import { picoOf } from './money.ts';
import type { Price } from './price.ts';

export interface CostUsage {
  classes: UsageClasses;
  /** Images generated (image requests). */
  images?: number;
  /** The size they were asked at, e.g. 1024x1024. */
  imageSize?: string;
}

/** The cost in micro-units, or the price field that a used class lacks (then the cost is unknown, never zero). */
export type CostResult = { micros: number } | { missing: string };

const pico = (amount: string | undefined): bigint => (amount === undefined ? 0n : (picoOf(amount) ?? 0n));

function imagePrice(price: Price, size: string | undefined): string | undefined {
  const image = price.image;
  if (image === undefined || typeof image === 'string') return image;
  return (size !== undefined ? image[size] : undefined) ?? image.default;
}

export function requestCost(price: Price, usage: CostUsage): CostResult {
  const c = usage.classes;
  const reasoningApart = price.reasoning !== undefined ? Math.min(c.reasoning, c.output) : 0;
  const tokenClasses: Array<[number, keyof Price]> = [
    [c.input, 'input'],
    [c.output - reasoningApart, 'output'],
    [reasoningApart, 'reasoning'],
    [c.cacheRead, 'cacheRead'],
    [c.cacheWrite5m, 'cacheWrite5m'],
    [c.cacheWrite1h, 'cacheWrite1h'],
  ];
  let total = 0n;
  for (const [tokens, field] of tokenClasses) {
    if (tokens <= 0) continue;
    const amount = price[field] as string | undefined;
    if (amount === undefined) return { missing: field };
    total += BigInt(Math.round(tokens)) * pico(amount);
  }
  const per = BigInt(price.per);
  const images = Math.max(0, Math.round(usage.images ?? 0));
  if (images > 0) {
    const amount = imagePrice(price, usage.imageSize);
    if (amount === undefined) return { missing: usage.imageSize ? `image.${usage.imageSize}` : 'image' };
    total += per * BigInt(images) * pico(amount);
  }
  total += per * pico(price.request);
  // pico-units × per -> micro-units: divide by per × 1e6, rounding half up.
  const divisor = per * 1_000_000n;
  return { micros: Number((total * 2n + divisor) / (divisor * 2n)) };
}
