// A box of text that stands apart from log lines (the first admin password): blank lines around it,
// a frame drawn with plain ASCII so every terminal and log viewer shows it the same.
export function framedBlock(lines: string[]): string {
  const width = Math.max(...lines.map((l) => l.length));
  const rule = `+${'-'.repeat(width + 2)}+`;
  return ['', rule, ...lines.map((l) => `| ${l.padEnd(width)} |`), rule, '', ''].join('\n');
}
