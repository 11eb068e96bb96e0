// The full-screen frame: a title bar, the screen's body (clipped to the space left), a status line
// and the key hints. Sized to the terminal; the last row is left free so Ink never clears the screen.
/** @jsxRuntime automatic @jsxImportSource react */
import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import type { Theme } from '../theme.ts';
import { KeyHints, type KeyHint } from './key-hints.tsx';

export interface FrameProps {
  title: string;
  width: number;
  height: number;
  hints: readonly KeyHint[];
  /** A short note shown right of the title (e.g. elapsed time or the base URL). */
  note?: string;
  theme: Theme;
  children: ReactNode;
}

export function Frame({ title, width, height, hints, note, theme, children }: FrameProps) {
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Box justifyContent="space-between" flexShrink={0}>
        <Text>
          <Text bold color={theme.color('accent')}>
            gwctl
          </Text>
          <Text color={theme.color('muted')}> › </Text>
          <Text bold>{title}</Text>
        </Text>
        <Text color={theme.color('muted')} wrap="truncate-start">
          {note ? `${note}  ` : ''}? help · q quit
        </Text>
      </Box>
      <Box flexShrink={0}>
        <Text color={theme.color('muted')}>{'─'.repeat(Math.max(0, width))}</Text>
      </Box>
      <Box flexDirection="column" flexGrow={1} flexShrink={1} overflow="hidden">
        {children}
      </Box>
      <Box flexShrink={0}>
        <KeyHints hints={hints} theme={theme} />
      </Box>
    </Box>
  );
}
