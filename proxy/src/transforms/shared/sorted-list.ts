/** Code-unit order: unlike localeCompare it gives the same bytes on every machine and locale. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function isEntryStart(line: string): boolean {
  return line.startsWith('- ') || /^[^\s<][^\s]*$/.test(line);
}

/**
 * Sorts the list that follows the first line containing `header` (one blank line after the header
 * is allowed). An entry is a `- ` line or a bare token line; indented continuation lines stay with
 * their entry. Anything else ends the list, so prose is never reordered.
 */
export function sortListAfterHeader(text: string, header: string): string {
  const lines = text.split('\n');
  const headerIndex = lines.findIndex((line) => line.includes(header));
  if (headerIndex < 0) return text;
  let start = headerIndex + 1;
  if (lines[start] === '') start += 1;
  const entries: string[][] = [];
  let end = start;
  while (end < lines.length) {
    const line = lines[end];
    if (isEntryStart(line)) entries.push([line]);
    else if (entries.length > 0 && /^\s+\S/.test(line)) entries[entries.length - 1].push(line);
    else break;
    end += 1;
  }
  if (entries.length < 2) return text;
  const sorted = [...entries].sort((a, b) => compareCodeUnits(a.join('\n'), b.join('\n')));
  if (sorted.every((entry, i) => entry === entries[i])) return text;
  return [...lines.slice(0, start), ...sorted.flat(), ...lines.slice(end)].join('\n');
}
