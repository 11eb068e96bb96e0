// Money is kept exact: recorded cost is an integer count of micro-units (1e-6 of the price table's
// currency, e.g. 1 = 0.000001 USD), and prices are decimal strings turned into BigInt pico-units
// (1e-12) for the arithmetic, so no float ever accumulates.

/** Micro-units per currency unit. */
export const MICROS_PER_UNIT = 1_000_000;

const PICO_DIGITS = 12;

/** A non-negative decimal ("3", "0.3", 0.075, "1e-7") as BigInt pico-units; undefined when it is not one. */
export function picoOf(value: unknown): bigint | undefined {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : typeof value === 'string' ? value.trim() : '';
  const match = /^(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!match) return undefined;
  const digits = match[1]! + (match[2] ?? '');
  const shift = PICO_DIGITS - (match[2]?.length ?? 0) + Number(match[3] ?? 0);
  if (shift < 0) {
    // More decimals than a pico-unit: only trailing zeros may go.
    const cut = digits.slice(digits.length + shift);
    if (!/^0*$/.test(cut)) return undefined;
    return BigInt(digits.slice(0, digits.length + shift) || '0');
  }
  return BigInt(digits) * 10n ** BigInt(shift);
}

/** The canonical decimal text of a price (what is stored and shown): "3", "0.3". */
export function decimalText(value: unknown): string | undefined {
  const pico = picoOf(value);
  if (pico === undefined) return undefined;
  const whole = pico / 10n ** BigInt(PICO_DIGITS);
  const fraction = (pico % 10n ** BigInt(PICO_DIGITS)).toString().padStart(PICO_DIGITS, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}

/** Money as people type it ("2.50", 5) in micro-units; undefined when it is not an amount to the micro-unit. */
export function microsOf(value: unknown): number | undefined {
  const pico = picoOf(value);
  if (pico === undefined || pico % 1_000_000n !== 0n) return undefined;
  const micros = pico / 1_000_000n;
  return micros <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(micros) : undefined;
}

/** Micro-units as a decimal amount, at least two decimals: 12345 -> "0.012345", 2500000 -> "2.50". */
export function formatMicros(micros: number): string {
  const sign = micros < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(micros));
  const whole = Math.floor(abs / MICROS_PER_UNIT);
  let fraction = String(abs % MICROS_PER_UNIT).padStart(6, '0').replace(/0+$/, '');
  if (fraction.length < 2) fraction = fraction.padEnd(2, '0');
  return `${sign}${whole}.${fraction}`;
}

/** Micro-units as a JSON number of currency units (for display; sums are done on micro-units). */
export function unitsOfMicros(micros: number): number {
  return micros / MICROS_PER_UNIT;
}
