// A labelled row: a fixed-width label and its value (the value wraps under itself).
/** @jsxRuntime automatic @jsxImportSource react */
import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import type { Theme } from '../theme.ts';

export function Field({ label, width = 11, theme, children }: { label: string; width?: number; theme: Theme; children: ReactNode }) {
  return (
    <Box>
      <Box width={width} flexShrink={0}>
        <Text color={theme.color('muted')}>{label}</Text>
      </Box>
      <Box flexGrow={1} flexShrink={1}>
        {typeof children === 'string' || typeof children === 'number' || Array.isArray(children) ? <Text>{children}</Text> : children}
      </Box>
    </Box>
  );
}
