// Turns a price as written (providers file, operator API JSON, CLI flags) into a Price, refusing
// bad input with a message that names the field and says what is accepted.
import { decimalText } from './money.ts';
import type { Price } from './price.ts';

export class PriceInputError extends RangeError {
  override readonly name = 'PriceInputError';
  /** Web handlers answer a 4xx with the message as is. */
  readonly statusCode = 400;
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
  }
}

export const DEFAULT_PER = 1_000_000;
const OPTIONAL_AMOUNTS = ['cacheRead', 'cacheWrite5m', 'cacheWrite1h', 'reasoning', 'request'] as const;
const KNOWN = new Set(['model', 'provider', 'currency', 'per', 'input', 'output', ...OPTIONAL_AMOUNTS, 'image', 'from']);

function amount(field: string, value: unknown): string {
  const text = decimalText(value);
  if (text === undefined) throw new PriceInputError(field, `must be an amount >= 0 such as 3 or 0.3 (at most 12 decimals); got ${JSON.stringify(value)}`);
  return text;
}

function imagePrice(value: unknown): string | Record<string, string> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return amount('image', value);
  const sizes = Object.entries(value as Record<string, unknown>);
  if (sizes.length === 0) throw new PriceInputError('image', 'must be an amount, or a mapping of sizes (1024x1024, default) to amounts');
  return Object.fromEntries(
    sizes.map(([size, price]) => {
      if (size !== 'default' && !/^\d{1,5}x\d{1,5}$/.test(size)) throw new PriceInputError(`image.${size}`, 'a size is WIDTHxHEIGHT such as 1024x1024, or default');
      return [size, amount(`image.${size}`, price)];
    }),
  );
}

/** `from` as YYYY-MM-DD, a real calendar date. */
function fromDate(value: unknown): string {
  const text = typeof value === 'string' ? value.trim() : value instanceof Date ? value.toISOString().slice(0, 10) : '';
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || new Date(`${text}T00:00:00Z`).toISOString().slice(0, 10) !== text) {
    throw new PriceInputError('from', `must be a date such as 2026-01-01 (UTC); got ${JSON.stringify(value)}`);
  }
  return text;
}

export function parsePrice(raw: unknown): Price {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new PriceInputError('price', 'must be a mapping with model, currency, input and output');
  const p = raw as Record<string, unknown>;
  for (const field of Object.keys(p)) {
    if (!KNOWN.has(field)) throw new PriceInputError(field, `is not a price field; known: ${[...KNOWN].join(', ')}`);
  }
  if (typeof p.model !== 'string' || p.model.trim() === '' || p.model.length > 200) throw new PriceInputError('model', 'must be a public model name or a glob such as claude-sonnet-* (at most 200 characters)');
  if (p.provider !== undefined && p.provider !== null && (typeof p.provider !== 'string' || !/^[A-Za-z0-9._-]+$/.test(p.provider))) {
    throw new PriceInputError('provider', 'must be a provider name of letters, digits, . _ -');
  }
  if (typeof p.currency !== 'string' || !/^[A-Z]{3}$/.test(p.currency)) throw new PriceInputError('currency', `must be a three-letter currency code such as USD; got ${JSON.stringify(p.currency)}`);
  const per = p.per === undefined || p.per === null ? DEFAULT_PER : typeof p.per === 'string' && /^\d+$/.test(p.per.trim()) ? Number(p.per) : p.per;
  if (typeof per !== 'number' || !Number.isSafeInteger(per) || per < 1) throw new PriceInputError('per', `must be a whole number of tokens >= 1 (default 1000000); got ${JSON.stringify(p.per)}`);
  if (p.input === undefined) throw new PriceInputError('input', 'is required: the price of input tokens');
  if (p.output === undefined) throw new PriceInputError('output', 'is required: the price of output tokens');
  const price: Price = { model: p.model.trim(), currency: p.currency, per, input: amount('input', p.input), output: amount('output', p.output) };
  if (typeof p.provider === 'string') price.provider = p.provider;
  for (const field of OPTIONAL_AMOUNTS) if (p[field] !== undefined && p[field] !== null) price[field] = amount(field, p[field]);
  if (p.image !== undefined && p.image !== null) price.image = imagePrice(p.image);
  if (p.from !== undefined && p.from !== null && p.from !== '') price.from = fromDate(p.from);
  return price;
}
