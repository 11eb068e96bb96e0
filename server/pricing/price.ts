// One entry of the price table: what a model costs per `per` tokens of each token class, per image
// and per request, from a date on. Amounts are canonical decimal strings (see money.ts).

export const TOKEN_PRICE_FIELDS = ['input', 'output', 'cacheRead', 'cacheWrite5m', 'cacheWrite1h', 'reasoning'] as const;
export type TokenPriceField = (typeof TOKEN_PRICE_FIELDS)[number];

export interface Price {
  /** A public model name or a glob (`claude-sonnet-*`). */
  model: string;
  /** Narrows the entry to requests served by this provider. */
  provider?: string;
  /** ISO 4217 code, e.g. USD. Every entry of one table uses the same currency. */
  currency: string;
  /** Tokens the token prices are for (default 1,000,000). */
  per: number;
  input: string;
  output: string;
  cacheRead?: string;
  cacheWrite5m?: string;
  cacheWrite1h?: string;
  /** Reasoning tokens priced apart from the rest of the output, when the upstream reports them. */
  reasoning?: string;
  /** Per image generated: one price, or one per size (`1024x1024`) with an optional `default`. */
  image?: string | Record<string, string>;
  /** Per request, whatever it used. */
  request?: string;
  /** `YYYY-MM-DD` (UTC) the entry takes effect; absent = always. */
  from?: string;
}

/** Where an entry comes from: the providers file (read-only here) or the database (admin commands). */
export type PriceSource = 'file' | 'database';

export interface PriceEntry extends Price {
  source: PriceSource;
}

/** The identity of an entry: a set replaces the entry of the same model, provider and date. */
export function priceId(price: Pick<Price, 'model' | 'provider' | 'from'>): string {
  return `${price.model}\u0000${price.provider ?? ''}\u0000${price.from ?? ''}`;
}
