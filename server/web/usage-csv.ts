// The usage of a period as CSV: one row per bucket × model × key. Cells are quoted when they hold a
// separator, quote or line break, and text a spreadsheet would run as a formula (starting with
// = + - @, a tab or a carriage return; key names are chosen by users) gets a leading apostrophe.
import type { UsageRow } from '../store/usage-repo.ts';

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string | number): string {
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(cells: Array<string | number>): string {
  return cells.map(csvCell).join(',') + '\r\n';
}

export const CSV_HEADER = ['bucket_start_utc', 'model', 'key_id', 'key', 'requests', 'input_tokens', 'output_tokens', 'errors'];

/**
 * Rows of the buckets, added up per bucket, model and key (several hours fall in one day), in
 * bucket order. `bucketStart` turns a bucket id into the time its bucket starts.
 */
export function usageCsv(rows: UsageRow[], buckets: string[], bucketOf: (hour: string) => string, bucketStart: (bucket: string) => string, keyName: (keyId: string) => string): string {
  const wanted = new Set(buckets);
  const cells = new Map<string, { bucket: string; model: string; keyId: string; requests: number; inputTokens: number; outputTokens: number; errors: number }>();
  for (const row of rows) {
    const bucket = bucketOf(row.hour);
    if (!wanted.has(bucket)) continue;
    const id = `${bucket}\u0000${row.model}\u0000${row.keyId}`;
    const cell = cells.get(id) ?? { bucket, model: row.model, keyId: row.keyId, requests: 0, inputTokens: 0, outputTokens: 0, errors: 0 };
    cell.requests += row.requests;
    cell.inputTokens += row.inputTokens;
    cell.outputTokens += row.outputTokens;
    cell.errors += row.errors;
    cells.set(id, cell);
  }
  const ordered = [...cells.values()].sort((a, b) => a.bucket.localeCompare(b.bucket) || a.model.localeCompare(b.model) || a.keyId.localeCompare(b.keyId));
  return csvLine(CSV_HEADER) + ordered.map((c) => csvLine([bucketStart(c.bucket), c.model, c.keyId, keyName(c.keyId), c.requests, c.inputTokens, c.outputTokens, c.errors])).join('');
}
