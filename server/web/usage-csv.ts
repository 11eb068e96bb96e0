// The usage of a period as CSV: one row per bucket × model × key. Key names are chosen by users, so
// no cell may start a formula in any spreadsheet: a cell starting with = + - @ (or their full-width
// forms), a tab or a carriage return gets a leading apostrophe, and so does every such character
// right after a separator some spreadsheet may split on (`,` `;` tab `|`): a `;` locale splits
// `x;=1+2` at the `;` whatever the quotes, and its second cell would run. Cells with a separator,
// quote or line break are quoted.
import type { UsageRow } from '../store/usage-repo.ts';
import { formatMicros } from '../pricing/money.ts';

const FORMULA = '=+\\-@\\uff1d\\uff0b\\uff0d\\uff20';
const STARTS_FORMULA = new RegExp(`^(?:[${FORMULA}]|[\\t\\r])`);
const FORMULA_AFTER_SEPARATOR = new RegExp(`([,;\\t|\\r\\n]\\s*)([${FORMULA}])`, 'g');

export function csvCell(value: string | number): string {
  let text = String(value);
  if (typeof value === 'string') {
    text = text.replace(FORMULA_AFTER_SEPARATOR, "$1'$2");
    if (STARTS_FORMULA.test(text)) text = `'${text}`;
  }
  return /[",;\t\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(cells: Array<string | number>): string {
  return cells.map(csvCell).join(',') + '\r\n';
}

/** cost: the priced requests' cost in `currency` (decimal, exact), empty when a request had no price (unpriced_requests > 0). */
export const CSV_HEADER = ['bucket_start_utc', 'model', 'key_id', 'key', 'requests', 'input_tokens', 'output_tokens', 'errors', 'cost', 'currency', 'unpriced_requests'];

/**
 * Rows of the buckets, added up per bucket, model and key (several hours fall in one day), in
 * bucket order. `bucketStart` turns a bucket id into the time its bucket starts.
 */
export function usageCsv(rows: UsageRow[], buckets: string[], bucketOf: (hour: string) => string, bucketStart: (bucket: string) => string, keyName: (keyId: string) => string, currency?: string): string {
  const wanted = new Set(buckets);
  const cells = new Map<string, { bucket: string; model: string; keyId: string; requests: number; inputTokens: number; outputTokens: number; errors: number; costMicros: number; unpriced: number }>();
  for (const row of rows) {
    const bucket = bucketOf(row.hour);
    if (!wanted.has(bucket)) continue;
    const id = `${bucket}\u0000${row.model}\u0000${row.keyId}`;
    const cell = cells.get(id) ?? { bucket, model: row.model, keyId: row.keyId, requests: 0, inputTokens: 0, outputTokens: 0, errors: 0, costMicros: 0, unpriced: 0 };
    cell.requests += row.requests;
    cell.costMicros += row.costMicros ?? 0;
    cell.unpriced += row.unpriced ?? 0;
    cell.inputTokens += row.inputTokens;
    cell.outputTokens += row.outputTokens;
    cell.errors += row.errors;
    cells.set(id, cell);
  }
  const ordered = [...cells.values()].sort((a, b) => a.bucket.localeCompare(b.bucket) || a.model.localeCompare(b.model) || a.keyId.localeCompare(b.keyId));
  return csvLine(CSV_HEADER) + ordered.map((c) => csvLine([bucketStart(c.bucket), c.model, c.keyId, keyName(c.keyId), c.requests, c.inputTokens, c.outputTokens, c.errors, c.unpriced > 0 ? '' : formatMicros(c.costMicros), currency ?? '', c.unpriced])).join('');
}
