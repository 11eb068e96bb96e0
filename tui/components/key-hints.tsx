// The footer line of key hints: `key action` pairs, the keys highlighted.
/** @jsxRuntime automatic @jsxImportSource react */
import { Box, Text } from 'ink';
import type { Theme } from '../theme.ts';

export type KeyHint = readonly [key: string, action: string];

export function KeyHints({ hints, theme }: { hints: readonly KeyHint[]; theme: Theme }) {
  return (
    <Box>
      <Text wrap="truncate-end">
        {hints.map(([key, action], i) => (
          <Text key={key + action}>
            {i > 0 ? '  ' : ''}
            <Text bold color={theme.color('accent')}>
              {key}
            </Text>{' '}
            <Text color={theme.color('muted')}>{action}</Text>
          </Text>
        ))}
      </Text>
    </Box>
  );
}
