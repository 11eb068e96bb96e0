// A scrollable pane of streamed output lines. With `follow`, it shows the newest lines; otherwise
// `offset` is the first line shown. Long lines are cut to keep one row per line.
/** @jsxRuntime automatic @jsxImportSource react */
import { Box, Text } from 'ink';
import type { Theme } from '../theme.ts';

export interface OutputPaneProps {
  lines: string[];
  height: number;
  offset: number;
  follow: boolean;
  title?: string;
  theme: Theme;
}

/** The first line shown for these props (follow pins the view to the end). */
export function paneStart(total: number, height: number, offset: number, follow: boolean): number {
  const last = Math.max(0, total - height);
  return follow ? last : Math.min(Math.max(0, offset), last);
}

export function OutputPane({ lines, height, offset, follow, title, theme }: OutputPaneProps) {
  const rows = Math.max(1, height);
  const start = paneStart(lines.length, rows, offset, follow);
  const visible = lines.slice(start, start + rows);
  const position = lines.length === 0 ? 'no output yet' : `lines ${start + 1}–${start + visible.length} of ${lines.length}${follow ? ' (following)' : ''}`;
  return (
    <Box flexDirection="column" borderStyle="single" borderColor={theme.color('muted')} paddingX={1}>
      <Text color={theme.color('muted')}>
        {title ? `${title} · ` : ''}
        {position}
      </Text>
      <Box flexDirection="column" height={rows}>
        {visible.map((line, i) => (
          <Text key={start + i} wrap="truncate-end">
            {line === '' ? ' ' : line}
          </Text>
        ))}
      </Box>
    </Box>
  );
}
