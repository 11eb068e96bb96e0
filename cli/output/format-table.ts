// Plain-text tables for terminal output: padded columns, a header row, nothing fancy.

export function formatTable(headers: string[], rows: Array<Array<string | number | null | undefined>>): string {
  const cells = rows.map((row) => row.map((cell) => (cell === null || cell === undefined ? '-' : String(cell))));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((row) => row[i]!.length)));
  const line = (row: string[]) => row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(headers), ...cells.map(line)].join('\n') + '\n';
}

export function toJson(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n';
}
